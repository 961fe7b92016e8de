package dev.payonce.client.web;

import java.net.http.HttpRequest.BodyPublishers;

import dev.payonce.TestCredentials;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

/**
 * The admin API over real HTTP, as the administrator.
 */
final class AdminApi {

	private final PaymentsApi http;

	AdminApi(int port) {
		this.http = new PaymentsApi(port, TestCredentials.ADMIN_TOKEN);
	}

	Reply createClient(String name) {
		return this.http.send(this.http.request("/admin/clients")
			.header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString("{\"name\":\"" + name + "\"}")));
	}

	/** Creates a client and returns its API key. */
	String newClientKey(String name) {
		Reply created = createClient(name);
		if (created.status() != 201) {
			throw new IllegalStateException("Could not create a client: " + created.status());
		}
		return created.field("apiKey");
	}

	Reply list() {
		return this.http.get("/admin/clients");
	}

	Reply rotate(String clientId) {
		return this.http
			.send(this.http.request("/admin/clients/" + clientId + "/api-keys").POST(BodyPublishers.noBody()));
	}

	Reply disable(String clientId) {
		return this.http
			.send(this.http.request("/admin/clients/" + clientId + "/disable").POST(BodyPublishers.noBody()));
	}

}
