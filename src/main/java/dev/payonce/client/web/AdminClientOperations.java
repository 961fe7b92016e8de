package dev.payonce.client.web;

import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

import dev.payonce.client.web.AdminClientController.ClientView;
import dev.payonce.client.web.AdminClientController.ClientWithKey;
import dev.payonce.client.web.AdminClientController.CreateClient;
import dev.payonce.client.web.AdminClientController.NewKey;
import dev.payonce.web.ApiDocumentation;

/**
 * The admin API as the OpenAPI document shows it. The problems every operation shares
 * (400 for a malformed header, 401, 403, 413, 415, 500, 503) are added by
 * {@link ApiDocumentation}.
 */
@Tag(name = "Admin", description = "Clients and their API keys; takes the admin token, refuses API keys")
@SecurityRequirement(name = ApiDocumentation.ADMIN_TOKEN)
interface AdminClientOperations {

	String NOT_FOUND = "{\"type\":\"https://payonce.dev/problems/client-not-found\",\"title\":\"Client not found\","
			+ "\"status\":404,\"detail\":\"No client or no active client with this id.\","
			+ "\"instance\":\"/admin/clients/cli_4lV3kq0aZ1mN8pQ2rS5t\"}";

	String INVALID = "{\"type\":\"https://payonce.dev/problems/invalid-request\",\"title\":\"Invalid request\","
			+ "\"status\":400,\"detail\":\"The request body breaks the contract; see errors.\","
			+ "\"instance\":\"/admin/clients\",\"errors\":[{\"field\":\"mode\",\"message\":\"must be test or live\"}]}";

	@Operation(operationId = "createClient", summary = "Create a client and its first API key",
			description = "The API key is in this answer only; Payonce keeps its SHA-256 digest.",
			responses = { @ApiResponse(responseCode = "201", description = "The client, with its new API key",
					headers = @Header(name = HttpHeaders.LOCATION, required = true, description = "/admin/clients/{id}",
							schema = @Schema(type = "string", format = "uri-reference")),
					content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
							schema = @Schema(implementation = ClientWithKey.class))),
					@ApiResponse(responseCode = "400", description = "The body breaks the rules; see errors",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "invalid-request", value = INVALID))) })
	ResponseEntity<ClientWithKey> create(CreateClient request);

	@Operation(operationId = "listClients", summary = "List every client, never with secrets",
			description = "Active and disabled clients alike; API keys are never shown again after they are issued.",
			responses = @ApiResponse(responseCode = "200", description = "Every client, oldest first",
					content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
							array = @io.swagger.v3.oas.annotations.media.ArraySchema(
									schema = @Schema(implementation = ClientView.class)))))
	List<ClientView> list();

	@Operation(operationId = "getClient", summary = "Read one client, without secrets",
			description = "A disabled client is still found, with its disabledAt.",
			responses = {
					@ApiResponse(responseCode = "200", description = "The client",
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									schema = @Schema(implementation = ClientView.class))),
					@ApiResponse(responseCode = "404", description = "No such client",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "client-not-found", value = NOT_FOUND))) })
	ClientView get(@Parameter(description = "The client id",
			schema = @Schema(type = "string", pattern = AdminClientController.CLIENT_ID_PATTERN)) String id);

	@Operation(operationId = "issueApiKey", summary = "Issue a new API key; every older key stops working at once",
			description = "The new key is in this answer only. The body is optional: without it the key is a test key.",
			responses = {
					@ApiResponse(responseCode = "201", description = "The client, with its new API key",
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									schema = @Schema(implementation = ClientWithKey.class))),
					@ApiResponse(responseCode = "400", description = "The body breaks the rules; see errors",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "invalid-request", value = INVALID))),
					@ApiResponse(responseCode = "404", description = "No such client, or the client is disabled",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "client-not-found", value = NOT_FOUND))) })
	ResponseEntity<ClientWithKey> rotate(
			@Parameter(description = "The client id",
					schema = @Schema(type = "string", pattern = AdminClientController.CLIENT_ID_PATTERN)) String id,
			@Nullable NewKey request);

	@Operation(operationId = "disableClient",
			summary = "Disable a client for good: its keys stop working at once, its payments stay",
			description = "Idempotent: disabling a disabled client answers 200 with the first disabledAt.",
			responses = {
					@ApiResponse(responseCode = "200", description = "The client, with disabledAt",
							content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
									schema = @Schema(implementation = ClientView.class))),
					@ApiResponse(responseCode = "404", description = "No such client",
							content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									examples = @ExampleObject(name = "client-not-found", value = NOT_FOUND))) })
	ClientView disable(@Parameter(description = "The client id",
			schema = @Schema(type = "string", pattern = AdminClientController.CLIENT_ID_PATTERN)) String id);

}
