package dev.payonce.payment.web;

/**
 * One problem with one field of a request body, listed in the {@code errors} member of an
 * {@code invalid-request} problem.
 *
 * @param field the JSON member name; empty for the body as a whole
 * @param message what is wrong, for the client
 */
public record FieldError(String field, String message) {

}
