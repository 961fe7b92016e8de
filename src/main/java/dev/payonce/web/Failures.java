package dev.payonce.web;

import java.net.SocketTimeoutException;

import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;
import org.springframework.web.util.DisconnectedClientHelper;

/**
 * Classifies failures that are not bugs in Payonce: a database that cannot be reached or
 * fails ({@code 503}), a client that hangs up, a request body that stalls past the
 * connection timeout. Classification is by exception type, never by message text.
 */
final class Failures {

	private Failures() {
	}

	static boolean isDatabaseFailure(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof DataAccessException || cause instanceof TransactionException) {
				return true;
			}
		}
		return false;
	}

	static boolean isTimeout(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof SocketTimeoutException) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Tomcat could not parse the request's parameters (a query string or form body with a
	 * broken escape or charset): the client's fault, answered {@code 400}. Tomcat's
	 * message quotes the parameter, so it is never logged.
	 */
	static boolean isMalformedParameters(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof InvalidParameterException) {
				return true;
			}
		}
		return false;
	}

	static boolean isClientGone(Throwable ex) {
		return DisconnectedClientHelper.isClientDisconnectedException(ex);
	}

	/**
	 * Logs a database failure at WARN: an outage is an operational event, not a bug. Only
	 * exception types are written, never messages, which may quote SQL or values.
	 */
	static void logDatabaseFailure(Logger log, Throwable ex) {
		Throwable root = NestedExceptionUtils.getMostSpecificCause(ex);
		log.warn("Database unavailable while handling a request: {} caused by {}", ex.getClass().getName(),
				root.getClass().getName());
	}

}
