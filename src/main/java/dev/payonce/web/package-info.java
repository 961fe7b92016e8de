/**
 * Cross-cutting HTTP: every error leaves Payonce as an RFC 9457 problem
 * ({@code application/problem+json}) with a stable type URI from
 * {@link dev.payonce.web.ProblemTypes}, and never with a stack trace, SQL text or
 * provider internals (docs/design.md section 2). This package renders problems (the one
 * factory, the advice, the error controller and Tomcat's error report) and builds the
 * OpenAPI frame; the filters of the HTTP edge are the {@code edge} sub-package.
 */
@NullMarked
package dev.payonce.web;

import org.jspecify.annotations.NullMarked;
