package dev.payonce.provider;

import java.util.Optional;
import java.util.UUID;

import org.springframework.data.repository.NoRepositoryBean;
import org.springframework.data.repository.Repository;

/**
 * The reads and writes {@link ProviderOperation} makes of its resources outside the
 * engine's own statements: the reload of a resource by id (a takeover's release, the
 * reconciler) and the write of what an unresolved attempt learned, inside the engine's
 * fenced release transaction. An operation's Spring Data repository extends it.
 *
 * @param <R> the resource
 */
@NoRepositoryBean
public interface ProviderRows<R extends ProviderResource> extends Repository<R, UUID> {

	/**
	 * The resource with this id, whatever its client.
	 * @param id the resource id
	 * @return the resource, or empty
	 */
	Optional<R> findById(UUID id);

	/**
	 * Writes the changes of the resources read in the current transaction now, so that a
	 * {@code @Version} conflict surfaces inside the caller's transaction. Cheaper than
	 * {@code saveAndFlush} for an entity this transaction loaded: no merge of the entity
	 * onto itself.
	 * @throws jakarta.persistence.TransactionRequiredException outside a transaction
	 */
	void flush();

}
