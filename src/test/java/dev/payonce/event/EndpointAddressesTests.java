package dev.payonce.event;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * docs/events.md, "Addresses": which addresses a webhook may go to. Every name is
 * resolved by a map, never by DNS; every address is an IP literal, parsed without a
 * lookup.
 */
class EndpointAddressesTests {

	private static final Map<String, List<String>> NAMES = Map.of("shop.example", List.of("93.184.216.34"),
			"internal.example", List.of("10.0.0.5"), "mixed.example", List.of("93.184.216.34", "192.168.1.20"),
			"metadata.example", List.of("169.254.169.254"), "v6-metadata.example", List.of("fd00:ec2::254"));

	private final EndpointAddresses strict = new EndpointAddresses(EndpointAddressesTests::resolve, false);

	private final EndpointAddresses development = new EndpointAddresses(EndpointAddressesTests::resolve, true);

	@Test
	void refusesLoopbackPrivateLinkLocalMetadataAndReservedAddresses() {
		Map<String, String> refused = Map.ofEntries(Map.entry("127.0.0.1", "loopback"), Map.entry("::1", "loopback"),
				Map.entry("10.1.2.3", "private"), Map.entry("172.16.0.1", "private"),
				Map.entry("192.168.0.1", "private"), Map.entry("100.64.0.1", "private"),
				Map.entry("fc00::1", "private"), Map.entry("fd00:ec2::254", "private"),
				Map.entry("169.254.169.254", "link_local"), Map.entry("fe80::1", "link_local"),
				Map.entry("0.0.0.0", "reserved"), Map.entry("::", "reserved"), Map.entry("224.0.0.1", "reserved"),
				Map.entry("255.255.255.255", "reserved"), Map.entry("198.18.0.1", "reserved"),
				Map.entry("::ffff:10.0.0.1", "private"), Map.entry("::ffff:127.0.0.1", "loopback"));

		refused.forEach((address, reason) -> assertThatThrownBy(() -> this.strict.check(address)).as(address)
			.isInstanceOfSatisfying(EndpointAddresses.Refused.class,
					(ex) -> assertThat(ex.reason()).isEqualTo(reason)));
	}

	@Test
	void refusesANameIfAnyOfItsAddressesIsRefusedAndANameThatDoesNotResolve() {
		assertThat(this.strict.check("shop.example")).extracting(InetAddress::getHostAddress)
			.containsExactly("93.184.216.34");
		assertThat(reason(() -> this.strict.check("internal.example"))).isEqualTo("private");
		assertThat(reason(() -> this.strict.check("mixed.example"))).isEqualTo("private");
		assertThat(reason(() -> this.strict.check("metadata.example"))).isEqualTo("link_local");
		assertThat(reason(() -> this.strict.check("v6-metadata.example"))).isEqualTo("private");
		assertThat(reason(() -> this.strict.check("nowhere.example"))).isEqualTo("unresolvable");
	}

	@Test
	void allowsLoopbackOnlyWhenTheDevelopmentSettingSaysSo() {
		assertThat(this.development.check("127.0.0.1")).hasSize(1);
		assertThat(this.development.check("::1")).hasSize(1);
		assertThat(reason(() -> this.development.check("10.0.0.5"))).isEqualTo("private");
		assertThat(reason(() -> this.development.check("169.254.169.254"))).isEqualTo("link_local");
	}

	private static String reason(Runnable check) {
		try {
			check.run();
		}
		catch (EndpointAddresses.Refused ex) {
			return ex.reason();
		}
		return "allowed";
	}

	static List<InetAddress> resolve(String host) throws UnknownHostException {
		List<String> addresses = NAMES.get(host);
		if (addresses == null) {
			if (!host.matches("[0-9.]+|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*")) {
				throw new UnknownHostException(host);
			}
			// An IP literal: parsed, never looked up.
			return List.of(InetAddress.getByName(host));
		}
		List<InetAddress> resolved = new java.util.ArrayList<>();
		for (String address : addresses) {
			resolved.add(InetAddress.getByName(address));
		}
		return resolved;
	}

}
