package dev.payonce.refund;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * One page of a payment's refunds as the API shows it, in Stripe's list shape
 * (https://docs.stripe.com/api/pagination): {@code object} is always {@code "list"},
 * {@code data} the refunds in the list's order, {@code has_more} whether another page
 * follows (ask for it with {@code starting_after} set to the last refund's id), and
 * {@code url} the list's path (docs/design.md section 8, "Listing refunds").
 *
 * @param object always {@code "list"}
 * @param data the page's refunds, oldest first, ties by id
 * @param hasMore whether refunds follow the last one of {@code data}
 * @param url the list's path, {@code /payments/{id}/refunds}
 */
@Schema(name = "RefundList",
		description = "One page of a payment's refunds, oldest first (ties by id), in Stripe's list shape. "
				+ "New members may appear.",
		requiredProperties = { "object", "data", "has_more", "url" })
public record RefundList(@Schema(allowableValues = "list", example = "list") String object,
		@ArraySchema(schema = @Schema(implementation = RefundReceipt.class)) List<RefundReceipt> data,
		@JsonProperty("has_more") @Schema(name = "has_more",
				description = "Whether more refunds follow; ask for them with starting_after set to the id of the "
						+ "last refund in data") boolean hasMore,
		@Schema(example = "/payments/6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a/refunds") String url) {

	/** The value of {@link #object()}. */
	public static final String OBJECT = "list";

	public RefundList {
		if (!OBJECT.equals(object)) {
			throw new IllegalArgumentException("A refund list's object is \"list\", not " + object);
		}
		data = List.copyOf(data);
	}

}
