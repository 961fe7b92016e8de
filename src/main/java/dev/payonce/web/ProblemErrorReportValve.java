package dev.payonce.web;

import java.io.IOException;
import java.io.Writer;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * Tomcat's error report for what never reaches Spring MVC (a request line or header
 * Tomcat itself rejects, such as a header value with a control character): an RFC 9457
 * problem in place of Tomcat's HTML page, with no server details.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Override
	protected void report(Request request, Response response, @Nullable Throwable throwable) {
		int status = response.getStatus();
		if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
			return;
		}
		Map<String, Object> problem = new LinkedHashMap<>();
		problem.put("type", ProblemTypes.of((status == 400) ? "invalid-request" : "http-" + status).toString());
		problem.put("title", (status == 400) ? "Invalid request" : "HTTP error " + status);
		problem.put("status", status);
		problem.put("detail", (status == 400) ? "The request line or a header is malformed." : "The request failed.");
		try {
			response.setContentType("application/problem+json");
			response.setCharacterEncoding("UTF-8");
			Writer writer = response.getReporter();
			if (writer != null) {
				writer.write(JSON.writeValueAsString(problem));
				response.finishResponse();
			}
		}
		catch (IOException | IllegalStateException ex) {
			// The client is gone or the response is committed: nothing more to say.
		}
	}

}
