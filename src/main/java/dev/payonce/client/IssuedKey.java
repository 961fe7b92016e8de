package dev.payonce.client;

/**
 * A client together with a newly issued API key: the only moment the secret exists
 * outside the client's hands.
 *
 * @param client the client
 * @param apiKey the new key
 */
public record IssuedKey(Client client, ApiKey apiKey) {

}
