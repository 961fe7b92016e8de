package dev.payonce.client.web;

import java.net.URI;
import java.util.List;

import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.payonce.client.Client;
import dev.payonce.client.ClientAdministration;
import dev.payonce.client.ClientId;
import dev.payonce.client.IssuedKey;
import dev.payonce.web.ApiProblem;

/**
 * The admin API, behind the admin token: create a client (its API key is returned once),
 * list clients (never with secrets), rotate a client's key (the old ones stop working at
 * once), disable a client (its keys stop working at once; its payments stay).
 */
@RestController
@RequestMapping("/admin/clients")
@Tag(name = "Admin", description = "Clients and their API keys; takes the admin token, refuses API keys")
@SecurityRequirement(name = "bearer")
class AdminClientController {

	private final ClientAdministration clients;

	AdminClientController(ClientAdministration clients) {
		this.clients = clients;
	}

	@PostMapping
	ResponseEntity<ClientWithKey> create(@Valid @RequestBody CreateClient request) {
		IssuedKey issued = this.clients.create(request.name().strip(), request.live());
		return ResponseEntity.created(URI.create("/admin/clients/" + issued.client().id()))
			.body(ClientWithKey.of(issued));
	}

	@GetMapping
	List<ClientView> list() {
		return this.clients.list().stream().map(ClientView::of).toList();
	}

	@GetMapping("/{id}")
	ClientView get(@PathVariable String id) {
		return this.clients.find(clientId(id)).map(ClientView::of).orElseThrow(AdminClientController::notFound);
	}

	@PostMapping("/{id}/api-keys")
	ResponseEntity<ClientWithKey> rotate(@PathVariable String id,
			@Valid @RequestBody(required = false) @Nullable NewKey request) {
		boolean live = request != null && request.live();
		return this.clients.rotate(clientId(id), live)
			.map((issued) -> ResponseEntity.status(HttpStatus.CREATED).body(ClientWithKey.of(issued)))
			.orElseThrow(AdminClientController::notFound);
	}

	@PostMapping("/{id}/disable")
	ClientView disable(@PathVariable String id) {
		return this.clients.disable(clientId(id)).map(ClientView::of).orElseThrow(AdminClientController::notFound);
	}

	private static ClientId clientId(String id) {
		try {
			return new ClientId(id);
		}
		catch (IllegalArgumentException ex) {
			throw notFound();
		}
	}

	private static ApiProblem notFound() {
		return new ApiProblem(HttpStatus.NOT_FOUND, "client-not-found", "Client not found",
				"No client or no active client with this id.");
	}

	/**
	 * Body of {@code POST /admin/clients}.
	 *
	 * @param name a human name
	 * @param mode {@code test} (default) for an {@code sk_test_} key, {@code live} for
	 * {@code sk_live_}
	 */
	record CreateClient(
			@NotBlank @Size(max = 100) @Pattern(regexp = "[\\p{Print}]+",
					message = "must be printable ASCII") String name,
			@Nullable @Pattern(regexp = "test|live", message = "must be test or live") String mode) {

		boolean live() {
			return "live".equals(this.mode);
		}

	}

	/**
	 * Optional body of {@code POST /admin/clients/{id}/api-keys}.
	 *
	 * @param mode {@code test} (default) or {@code live}
	 */
	record NewKey(@Nullable @Pattern(regexp = "test|live", message = "must be test or live") String mode) {

		boolean live() {
			return "live".equals(this.mode);
		}

	}

	/** A client without secrets. */
	record ClientView(String id, String name, String createdAt, @Nullable String disabledAt) {

		static ClientView of(Client client) {
			return new ClientView(client.id().value(), client.name(), client.createdAt().toString(),
					(client.disabledAt() != null) ? client.disabledAt().toString() : null);
		}

	}

	/** A client with its new API key: shown once, never again. */
	record ClientWithKey(String id, String name, String createdAt, @Nullable String disabledAt, String apiKey) {

		static ClientWithKey of(IssuedKey issued) {
			Client client = issued.client();
			return new ClientWithKey(client.id().value(), client.name(), client.createdAt().toString(),
					(client.disabledAt() != null) ? client.disabledAt().toString() : null, issued.apiKey().secret());
		}

	}

}
