package dev.payonce.capture;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * Where a capture stands (docs/design.md section 15). {@code PENDING} is the only status
 * that may change; the others are final.
 */
@Schema(enumAsRef = true, description = "PENDING may still change; SUCCEEDED, DECLINED and FAILED are final. "
		+ "New values may appear: treat an unknown one as not final.")
public enum CaptureStatus {

	/**
	 * Reserved and claimed; the provider has not answered yet, or its answer is unknown.
	 */
	PENDING,

	/** The provider captured. */
	SUCCEEDED,

	/** The provider declined the capture; its reservation is released. */
	DECLINED,

	/**
	 * Reconciliation gave up: the provider has no record of the capture; its reservation
	 * is released.
	 */
	FAILED

}
