package dev.payonce.provider;

import java.time.Instant;

import java.util.Locale;
import java.util.UUID;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

import dev.payonce.idempotency.IdempotentOperation.FinishStep;
import dev.payonce.idempotency.IdempotentOperation.ReleaseStep;
import dev.payonce.idempotency.ResourceTable;
import dev.payonce.idempotency.StoredResponse;
import dev.payonce.idempotency.ResourceTable.Transition;

/**
 * The fenced steps of a {@link ProviderOperation}, run by the engine inside its fenced
 * transactions. A completion moves the resource once to a final status, stores its
 * response, and is announced (the final-status meter and a log line) once it committed
 * (docs/design.md section 4, "Completion in one statement"); a release records what an
 * unresolved attempt taught, or moves the resource to its next provider key generation.
 * Thread-safe.
 *
 * @param <R> the resource
 */
final class ProviderSteps<R extends ProviderResource> {

	private final Logger log;

	private final String name;

	private final String noun;

	private final ResourceTable<R> table;

	private final ProviderRows<R> rows;

	private final ProviderServices services;

	private final Function<R, StoredResponse> response;

	ProviderSteps(String name, ResourceTable<R> table, ProviderRows<R> rows, ProviderServices services,
			Function<R, StoredResponse> response, Logger log) {
		this.log = log;
		this.rows = rows;
		this.name = name;
		this.noun = name.substring(0, 1).toUpperCase(Locale.ROOT) + name.substring(1);
		this.table = table;
		this.services = services;
		this.response = response;
		services.metrics().finishedSeries(name);
	}

	/**
	 * Approved: SUCCEEDED. Over {@code read}, the copy the act step read, in one
	 * statement; or, without one, reading the resource inside the completion.
	 */
	FinishStep succeeded(GatewayResult.Approved approved, @Nullable R read) {
		return finish(read, announced(ProviderResource.Outcome.SUCCEEDED, (resource) -> {
			resource.markSucceeded(approved.providerReference(), this.services.context().now());
			Instant holdExpiresAt = approved.holdExpiresAt();
			if (holdExpiresAt != null) {
				resource.holdExpiresAt(holdExpiresAt);
			}
			return this.response.apply(resource);
		}));
	}

	/** Declined: DECLINED, as {@link #succeeded}. */
	FinishStep declined(GatewayResult.Declined declined, @Nullable R read) {
		return finish(read, announced(ProviderResource.Outcome.DECLINED, (resource) -> {
			resource.markDeclined(declined.providerReference(), declined.declineCode(), this.services.context().now());
			return this.response.apply(resource);
		}));
	}

	/** Reconciliation gave up: FAILED, reading the resource inside the completion. */
	FinishStep failed() {
		return finish(null, announced(ProviderResource.Outcome.FAILED, (resource) -> {
			resource.markFailed(this.services.context().now());
			return this.response.apply(resource);
		}));
	}

	/**
	 * What an unknown answer taught, recorded in the fenced release; {@code null} if
	 * nothing.
	 */
	@Nullable ReleaseStep learned(int generation, GatewayResult.Unknown unknown) {
		String reference = unknown.providerReference();
		if (reference == null && !unknown.replayed()) {
			return null;
		}
		return (id) -> {
			R resource = load(id);
			boolean changed = false;
			if (reference != null && resource.rememberProviderReference(reference, this.services.context().now())) {
				log.info("{} {} keeps its provider reference before a final outcome", this.noun, id);
				changed = true;
			}
			if (unknown.replayed() && resource.recordProviderKeyReplayed(generation, this.services.context().now())) {
				log.info("{} {}: provider key generation {} answered from what the provider saved", this.noun, id,
						generation);
				changed = true;
			}
			if (changed) {
				this.rows.flush();
			}
		};
	}

	/** The fenced release that moves the resource to its next provider key generation. */
	ReleaseStep newProviderKeyGeneration(int from) {
		return (id) -> {
			R resource = load(id);
			resource.startNewProviderKeyGeneration(from, this.services.context().now());
			this.rows.flush();
			log.warn("{} {} moves to provider key generation {}: the provider has none of it", this.noun, id,
					resource.providerKeyGeneration());
		};
	}

	/** The operation's name with a capital, for log lines. */
	String noun() {
		return this.noun;
	}

	/** The resource's declaration for the engine. */
	ResourceTable<R> table() {
		return this.table;
	}

	/** The resource by id, whatever its client. */
	R load(UUID id) {
		return this.rows.findById(id)
			.orElseThrow(() -> new IllegalStateException("Claimed " + this.name + " " + id + " does not exist"));
	}

	private FinishStep finish(@Nullable R read, Transition<R> transition) {
		return (read != null) ? this.table.finish(read, transition) : this.table.finish(transition);
	}

	/**
	 * The resource's one move to {@code outcome}, announced (metric and log line) once
	 * the completion that wrote it committed.
	 */
	private Transition<R> announced(ProviderResource.Outcome outcome, Function<R, StoredResponse> move) {
		return Transition.of(move, (resource, stored) -> {
			this.services.metrics().finished(this.name, outcome);
			log.info("{} {} completed: {} ({})", this.noun, resource.resourceId(), outcome, stored.status());
		});
	}

}
