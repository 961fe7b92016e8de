package dev.payonce.provider;

/**
 * The port through which a provider's adapter hands over an event it received and
 * authenticated; the operation that applies providers' events implements it
 * (docs/design.md, "Webhooks"). An adapter answers the provider from the returned effect
 * alone: {@link ProviderEventEffect.Applied}, {@link ProviderEventEffect.Duplicate} and
 * {@link ProviderEventEffect.Ignored} are acknowledged, the others are answered so that
 * the provider delivers the event again.
 */
public interface ProviderEventHandler {

	/**
	 * Applies one delivery of an event: at least once in, exactly once in effect.
	 * @param event the authenticated event
	 * @return what it did
	 * @throws IllegalArgumentException if the event id is not a valid idempotency key (1
	 * to 255 visible ASCII characters)
	 * @throws org.springframework.dao.DataAccessException if the database fails; nothing
	 * is then acknowledged and the provider delivers the event again
	 */
	ProviderEventEffect apply(ProviderEvent event);

}
