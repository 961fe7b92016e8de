package dev.payonce.client;

import org.springframework.stereotype.Component;

/**
 * The single client that owns every request while Payonce has no authentication.
 */
@Component
public class BuiltInClient implements CurrentClient {

	/**
	 * The built-in client's id, stored in every row written before authentication exists.
	 */
	public static final ClientId ID = new ClientId("default");

	@Override
	public ClientId clientId() {
		return ID;
	}

}
