package io.payonce.client;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An RFC 9457 problem the service answered (README, "Problem types"). Match on
 * {@link #slug()}: it never changes, while {@code title} and {@code detail} are for
 * people.
 *
 * @param type the type URI, {@code https://payonce.dev/problems/<slug>}
 * @param slug the type's last path segment, such as {@code payment-declined}
 * @param title a short summary of the type
 * @param status the HTTP status
 * @param detail this occurrence, for a person, or empty
 * @param requestId the service's id of the request that produced it ({@code req_…}), or
 * empty; quote it to support
 * @param errors each broken rule of an {@code invalid-request} body, else empty
 * @param members every other member whose value is a string, number or boolean, as text
 * (such as {@code paymentId}, {@code declineCode}, {@code refundableAmount})
 */
public record Problem(String type, String slug, String title, int status, Optional<String> detail,
		Optional<String> requestId, List<FieldError> errors, Map<String, String> members) {

	/**
	 * Copies the collections.
	 */
	public Problem {
		errors = List.copyOf(errors);
		members = Map.copyOf(members);
	}

	/**
	 * A member of the problem beyond the standard ones.
	 * @param name its name, such as {@code paymentId}
	 * @return its value as text, or empty
	 */
	public Optional<String> member(String name) {
		return Optional.ofNullable(this.members.get(name));
	}

	/**
	 * One broken rule of a request body.
	 *
	 * @param field the JSON member, empty for the body as a whole
	 * @param message what is wrong, for a person
	 */
	public record FieldError(String field, String message) {

	}

}
