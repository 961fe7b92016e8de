package dev.payonce.web;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.jspecify.annotations.Nullable;

import org.springframework.http.ProblemDetail;

/**
 * Tomcat's error report for what never reaches Spring MVC (a request line or header
 * Tomcat itself rejects, such as a header value with a control character): an RFC 9457
 * problem in place of Tomcat's HTML page, with no server details. It carries the same
 * {@code Content-Type} as every other problem ({@code application/problem+json}, no
 * {@code charset} parameter: JSON is UTF-8, RFC 8259 section 8.1) and a
 * {@code Request-Id}: the request's own when a filter gave it one, a new one otherwise.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

	@Override
	protected void report(Request request, Response response, @Nullable Throwable throwable) {
		int status = response.getStatus();
		if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
			return;
		}
		String id = RequestIds.of(request);
		ProblemDetail problem = Problems.at((status == 400) ? Problems.rejectedRequest() : Problems.forStatus(status),
				request.getRequestURI());
		problem.setProperty(RequestIds.KEY, id);
		byte[] body = Problems.json(problem).getBytes(StandardCharsets.UTF_8);
		try {
			response.setHeader(RequestIds.HEADER, id);
			response.setContentType(ApiDocumentation.PROBLEM_JSON);
			response.setContentLength(body.length);
			OutputStream out = response.getOutputStream();
			out.write(body);
			response.finishResponse();
		}
		catch (IOException | IllegalStateException ex) {
			// The client is gone or the response is committed: nothing more to say.
		}
	}

}
