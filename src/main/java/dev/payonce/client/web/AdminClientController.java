package dev.payonce.client.web;

import java.net.URI;
import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
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
@RequestMapping(path = "/admin/clients", produces = MediaType.APPLICATION_JSON_VALUE)
class AdminClientController implements AdminClientOperations {

	/** A client id, as ECMA-262 (and Java) pattern. */
	static final String CLIENT_ID_PATTERN = "^[A-Za-z0-9_-]{1,64}$";

	/** A client's name: 1-100 printable ASCII characters, not all spaces. */
	static final String NAME_PATTERN = "^[ -~]*[!-~][ -~]*$";

	/** A key's mode. */
	static final String MODE_PATTERN = "^(test|live)$";

	private final ClientAdministration clients;

	AdminClientController(ClientAdministration clients) {
		this.clients = clients;
	}

	@Override
	@PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
	public ResponseEntity<ClientWithKey> create(@Valid @RequestBody CreateClient request) {
		IssuedKey issued = this.clients.create(request.name().strip(), request.live());
		return ResponseEntity.created(URI.create("/admin/clients/" + issued.client().id()))
			.body(ClientWithKey.of(issued));
	}

	@Override
	@GetMapping
	public List<ClientView> list() {
		return this.clients.list().stream().map(ClientView::of).toList();
	}

	@Override
	@GetMapping("/{id}")
	public ClientView get(@PathVariable String id) {
		return this.clients.find(clientId(id)).map(ClientView::of).orElseThrow(AdminClientController::notFound);
	}

	@Override
	@PostMapping("/{id}/api-keys")
	public ResponseEntity<ClientWithKey> rotate(@PathVariable String id,
			@Valid @RequestBody(required = false) @Nullable NewKey request) {
		boolean live = request != null && request.live();
		return this.clients.rotate(clientId(id), live)
			.map((issued) -> ResponseEntity.status(HttpStatus.CREATED).body(ClientWithKey.of(issued)))
			.orElseThrow(AdminClientController::notFound);
	}

	@Override
	@PostMapping("/{id}/disable")
	public ClientView disable(@PathVariable String id) {
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
	@Schema(name = "CreateClientRequest", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
	record CreateClient(@Schema(requiredMode = Schema.RequiredMode.REQUIRED, minLength = 1, maxLength = 100,
			description = "A human name: printable ASCII, not only spaces; leading and trailing spaces are dropped",
			example = "Acme") @NotBlank @Size(min = 1,
					max = 100) @Pattern(regexp = NAME_PATTERN, message = "must be printable ASCII") String name,
			@Schema(requiredMode = Schema.RequiredMode.NOT_REQUIRED, allowableValues = {
					"test", "live" }, defaultValue = "test",
					description = "test for an sk_test_ key, live for sk_live_") @Nullable @Pattern(
							regexp = MODE_PATTERN, message = "must be test or live") String mode){

		boolean live() {
			return "live".equals(this.mode);
		}

	}

	/**
	 * Optional body of {@code POST /admin/clients/{id}/api-keys}.
	 *
	 * @param mode {@code test} (default) or {@code live}
	 */
	@Schema(name = "NewApiKeyRequest", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
	record NewKey(@Schema(requiredMode = Schema.RequiredMode.NOT_REQUIRED, allowableValues = {
			"test", "live" }, defaultValue = "test",
			description = "test for an sk_test_ key, live for sk_live_") @Nullable @Pattern(regexp = MODE_PATTERN,
					message = "must be test or live") String mode){

		boolean live() {
			return "live".equals(this.mode);
		}

	}

	/** A client without secrets. */
	@Schema(name = "Client", description = "A client, never with a secret. New members may appear.",
			requiredProperties = { "id", "name", "createdAt", "disabledAt" })
	record ClientView(@Schema(pattern = CLIENT_ID_PATTERN, example = "cli_4lV3kq0aZ1mN8pQ2rS5t") String id,
			@Schema(example = "Acme") String name,
			@Schema(format = "date-time", description = "When the client was created, UTC") String createdAt,
			@Schema(format = "date-time", nullable = true,
					description = "When the client was disabled, UTC; null while active") @Nullable String disabledAt) {

		static ClientView of(Client client) {
			return new ClientView(client.id().value(), client.name(), client.createdAt().toString(),
					(client.disabledAt() != null) ? client.disabledAt().toString() : null);
		}

	}

	/** A client with its new API key: shown once, never again. */
	@Schema(name = "ClientWithApiKey",
			description = "A client with its new API key, shown in this answer only. New members may appear.",
			requiredProperties = { "id", "name", "createdAt", "disabledAt", "apiKey" })
	record ClientWithKey(@Schema(pattern = CLIENT_ID_PATTERN, example = "cli_4lV3kq0aZ1mN8pQ2rS5t") String id,
			@Schema(example = "Acme") String name,
			@Schema(format = "date-time", description = "When the client was created, UTC") String createdAt,
			@Schema(format = "date-time", nullable = true,
					description = "When the client was disabled, UTC; null while active") @Nullable String disabledAt,
			@Schema(pattern = "^sk_(test|live)_[A-Za-z0-9_-]{43}$",
					description = "The API key: send it as Authorization: Bearer; it is never shown again") String apiKey) {

		static ClientWithKey of(IssuedKey issued) {
			Client client = issued.client();
			return new ClientWithKey(client.id().value(), client.name(), client.createdAt().toString(),
					(client.disabledAt() != null) ? client.disabledAt().toString() : null, issued.apiKey().secret());
		}

	}

}
