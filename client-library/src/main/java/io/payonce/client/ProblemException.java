package io.payonce.client;

/**
 * The service answered a problem that no retry of the same request can change: the
 * request, the credentials or the key must change first. The subclass names the family
 * ({@link InvalidRequestException}, {@link AuthenticationException},
 * {@link PermissionException}, {@link NotFoundException},
 * {@link IdempotencyKeyReusedException}); this class itself stands for any other problem,
 * such as {@code 500 internal-error} on a read. The message carries the problem's type,
 * status and request id, never a key or a body.
 */
public non-sealed class ProblemException extends PayonceException {

	private final Problem problem;

	ProblemException(Problem problem) {
		super(problem.status() + " " + problem.slug() + problem.requestId().map((id) -> " (" + id + ")").orElse(""),
				null);
		this.problem = problem;
	}

	/**
	 * The problem as answered.
	 * @return the problem
	 */
	public Problem problem() {
		return this.problem;
	}

	static ProblemException of(Problem problem) {
		return switch (problem.status()) {
			case 400, 406, 413, 415, 417 -> new InvalidRequestException(problem);
			case 401 -> new AuthenticationException(problem);
			case 403 -> new PermissionException(problem);
			case 404 -> new NotFoundException(problem);
			case 422 -> new IdempotencyKeyReusedException(problem);
			default -> new ProblemException(problem);
		};
	}

}
