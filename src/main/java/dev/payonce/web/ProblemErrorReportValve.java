package dev.payonce.web;

import java.io.IOException;
import java.io.Writer;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.jspecify.annotations.Nullable;

/**
 * Tomcat's error report for what never reaches Spring MVC (a request line or header
 * Tomcat itself rejects, such as a header value with a control character): an RFC 9457
 * problem in place of Tomcat's HTML page, with no server details.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

	@Override
	protected void report(Request request, Response response, @Nullable Throwable throwable) {
		int status = response.getStatus();
		if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
			return;
		}
		String problem = Problems.json(Problems
			.at((status == 400) ? Problems.rejectedRequest() : Problems.forStatus(status), request.getRequestURI()));
		try {
			response.setContentType("application/problem+json");
			response.setCharacterEncoding("UTF-8");
			Writer writer = response.getReporter();
			if (writer != null) {
				writer.write(problem);
				response.finishResponse();
			}
		}
		catch (IOException | IllegalStateException ex) {
			// The client is gone or the response is committed: nothing more to say.
		}
	}

}
