/**
 * The payments HTTP API ({@code POST /payments}, {@code GET /payments/{id}}), and what
 * the refunds API shares with it: the request body's strict reading
 * ({@link dev.payonce.payment.web.PaymentRequestReader}), the payment id in a path, the
 * API key's mode check and the problems both answer
 * ({@link dev.payonce.payment.web.PaymentProblems}) (docs/design.md section 2).
 */
@NullMarked
@NamedInterface("web")
package dev.payonce.payment.web;

import org.jspecify.annotations.NullMarked;

import org.springframework.modulith.NamedInterface;
