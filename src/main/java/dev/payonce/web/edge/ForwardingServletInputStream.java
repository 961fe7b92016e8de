package dev.payonce.web.edge;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;

/**
 * A request body stream that forwards the Servlet API's non-blocking state to the stream
 * it wraps, so that a filter's stream (the body-read deadline, the UTF-8 check) adds only
 * what it checks on {@code read}.
 */
abstract class ForwardingServletInputStream extends ServletInputStream {

	/** The stream read from. */
	protected final ServletInputStream body;

	ForwardingServletInputStream(ServletInputStream body) {
		this.body = body;
	}

	@Override
	public boolean isFinished() {
		return this.body.isFinished();
	}

	@Override
	public boolean isReady() {
		return this.body.isReady();
	}

	@Override
	public void setReadListener(ReadListener listener) {
		this.body.setReadListener(listener);
	}

}
