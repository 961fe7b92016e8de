package dev.payonce.payment;

import java.net.URI;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;

import dev.payonce.idempotency.StoredResponse;
import dev.payonce.web.Problems;

/**
 * The two shapes of a final answer that payments and refunds store with their idempotency
 * record and replay byte for byte (docs/design.md sections 2 and 8): a 201 with the
 * resource's JSON and {@code Location}, and a 402 problem naming the resource.
 */
public final class FinalResponses {

	private FinalResponses() {
	}

	/**
	 * {@code 201 Created}.
	 * @param location the resource's path, for {@code Location}
	 * @param json the resource's JSON, UTF-8 text
	 * @return the stored response
	 */
	public static StoredResponse created(String location, String json) {
		return new StoredResponse(201,
				Map.of(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_JSON_VALUE, HttpHeaders.LOCATION, location),
				json);
	}

	/**
	 * {@code 402} with a problem, rendered once.
	 * @param slug the problem type's slug
	 * @param title the problem's title
	 * @param detail the problem's detail
	 * @param instance the path the request was sent to
	 * @param members the problem's extension members, in the order they are written
	 * @return the stored response
	 */
	public static StoredResponse paymentRequired(String slug, String title, String detail, String instance,
			Map<String, @Nullable Object> members) {
		ProblemDetail problem = Problems.of(HttpStatus.PAYMENT_REQUIRED, slug, title, detail);
		problem.setInstance(URI.create(instance));
		members.forEach(problem::setProperty);
		return new StoredResponse(402, Map.of(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_PROBLEM_JSON_VALUE),
				Problems.json(problem));
	}

}
