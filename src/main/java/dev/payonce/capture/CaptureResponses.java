package dev.payonce.capture;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.stereotype.Component;

import dev.payonce.idempotency.StoredResponse;
import dev.payonce.payment.FinalResponses;

/**
 * Renders a capture's final answers, stored with the idempotency record and replayed byte
 * for byte: 201 with the receipt and {@code Location}, 402 with the
 * {@code capture-declined} or {@code capture-failed} problem (docs/design.md section 15).
 */
@Component
public class CaptureResponses {

	private final JsonMapper json;

	CaptureResponses(JsonMapper json) {
		this.json = json;
	}

	/**
	 * The JSON receipt of a capture, as {@code GET} and a 201 show it.
	 * @param capture the capture
	 * @return the receipt's JSON, UTF-8 text
	 */
	public String receipt(Capture capture) {
		return this.json.writeValueAsString(CaptureReceipt.of(capture));
	}

	/**
	 * A payment's captures as a JSON array of receipts, oldest first.
	 * @param captures the captures
	 * @return the array's JSON, UTF-8 text
	 */
	public String list(List<Capture> captures) {
		return this.json.writeValueAsString(captures.stream().map(CaptureReceipt::of).toList());
	}

	StoredResponse created(Capture capture) {
		return FinalResponses.created("/payments/" + capture.paymentId() + "/captures/" + capture.id(),
				receipt(capture));
	}

	StoredResponse declined(Capture capture) {
		Map<String, @Nullable Object> extensions = new LinkedHashMap<>();
		extensions.put("declineCode", capture.declineCode());
		return paymentRequired(capture, "capture-declined", "Capture declined",
				"The payment provider declined the capture; nothing was captured and the amount is capturable "
						+ "again while the authorization holds.",
				extensions);
	}

	StoredResponse failed(Capture capture) {
		return paymentRequired(capture, "capture-failed", "Capture failed",
				"The payment provider never processed this capture and nothing was captured. "
						+ "Use a new Idempotency-Key to try again.",
				Map.of());
	}

	private static StoredResponse paymentRequired(Capture capture, String slug, String title, String detail,
			Map<String, @Nullable Object> extensions) {
		Map<String, @Nullable Object> members = new LinkedHashMap<>();
		members.put("paymentId", capture.paymentId().toString());
		members.put("captureId", capture.id().toString());
		members.putAll(extensions);
		return FinalResponses.paymentRequired(slug, title, detail, "/payments/" + capture.paymentId() + "/captures",
				members);
	}

}
