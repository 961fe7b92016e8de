/**
 * Runs the history checker of the test tree ({@code dev.payonce.history.HistoryFiles}) for
 * the cluster scenarios, as a source-file program:
 * {@code java -cp target/test-classes deploy/cluster/HistoryCheck.java check NAME HISTORY END_STATE}.
 * It lives here, not in the test tree, so that the test classes keep one main class, the one
 * {@code ./mvnw spring-boot:test-run} starts ({@code TestPayonceApplication}).
 */
public class HistoryCheck {

	public static void main(String[] args) {
		System.exit(dev.payonce.history.HistoryFiles.run(args, System.out, System.err));
	}

}
