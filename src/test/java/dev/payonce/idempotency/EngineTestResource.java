package dev.payonce.idempotency;

import java.util.UUID;

import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import org.jspecify.annotations.Nullable;

/**
 * The resource of the engine's test operations that declare it ({@link ResourceTable}): a
 * row of {@code engine_test_resources}, mapped by annotations only (not an entity JPA
 * manages), so the engine inserts, reloads and writes it.
 */
@Table(name = "engine_test_resources")
class EngineTestResource {

	/** The version column, for a table an older run created without it. */
	static final String ADD_VERSION = "ALTER TABLE engine_test_resources ADD COLUMN IF NOT EXISTS version bigint";

	@Id
	@Nullable UUID id;

	@Nullable String operation;

	@Nullable String state;

	int finishes;

	@Version
	@Nullable Long version;

	EngineTestResource() {
	}

	EngineTestResource(UUID id, String operation) {
		this.id = id;
		this.operation = operation;
		this.state = "CREATED";
	}

}
