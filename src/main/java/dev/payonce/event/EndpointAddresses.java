package dev.payonce.event;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Which addresses a webhook may be sent to (docs/events.md, "Addresses"): only public
 * unicast ones. Refused: loopback (unless allowed for development), private (RFC 1918,
 * IPv6 unique local fc00::/7), link-local (169.254.0.0/16 with the cloud metadata address
 * 169.254.169.254, fe80::/10), carrier-grade NAT (100.64.0.0/10, RFC 6598), unspecified,
 * multicast, broadcast and reserved ranges (RFC 6890), and IPv4 addresses written as IPv6
 * (mapped or compatible) that are any of these. A host is refused if any of its addresses
 * is: a name that resolves to a public and a private address is refused, and the delivery
 * connects only to the addresses this check returned, so a DNS answer that changes
 * between the check and the connection (rebinding) cannot redirect it. Thread-safe.
 */
final class EndpointAddresses {

	private final HostResolver resolver;

	private final boolean allowLoopback;

	EndpointAddresses(HostResolver resolver, boolean allowLoopback) {
		this.resolver = resolver;
		this.allowLoopback = allowLoopback;
	}

	/**
	 * Resolves {@code host} and checks every address.
	 * @param host a name or an IP literal
	 * @return the addresses, every one allowed
	 * @throws Refused if the host does not resolve or any address is refused
	 */
	List<InetAddress> check(String host) {
		List<InetAddress> addresses;
		try {
			addresses = this.resolver.resolve(host);
		}
		catch (UnknownHostException ex) {
			throw new Refused("unresolvable");
		}
		if (addresses.isEmpty()) {
			throw new Refused("unresolvable");
		}
		for (InetAddress address : addresses) {
			String reason = refusal(address);
			if (reason != null) {
				throw new Refused(reason);
			}
		}
		return addresses;
	}

	/** Why an address is refused; {@code null} if it is allowed. */
	String refusal(InetAddress address) {
		InetAddress checked = embeddedIpv4(address);
		if (checked.isLoopbackAddress()) {
			return this.allowLoopback ? null : "loopback";
		}
		if (checked.isLinkLocalAddress()) {
			return "link_local";
		}
		if (checked.isSiteLocalAddress()) {
			return "private";
		}
		if (checked.isAnyLocalAddress() || checked.isMulticastAddress()) {
			return "reserved";
		}
		byte[] b = checked.getAddress();
		if (checked instanceof Inet4Address) {
			int first = b[0] & 0xff;
			int second = b[1] & 0xff;
			if (first == 0 || first >= 240 || (first == 100 && second >= 64 && second <= 127)
					|| (first == 192 && second == 0 && (b[2] & 0xff) == 0) || (first == 198 && (second & 0xfe) == 18)) {
				return (first == 100) ? "private" : "reserved";
			}
			return null;
		}
		if ((b[0] & 0xfe) == 0xfc) {
			// fc00::/7 unique local, where cloud metadata services answer
			// (fd00:ec2::254).
			return "private";
		}
		return null;
	}

	/** The IPv4 address an IPv6 address carries (mapped ::ffff:a.b.c.d or compatible). */
	private static InetAddress embeddedIpv4(InetAddress address) {
		if (!(address instanceof Inet6Address)) {
			return address;
		}
		byte[] b = address.getAddress();
		for (int i = 0; i < 10; i++) {
			if (b[i] != 0) {
				return address;
			}
		}
		boolean mapped = (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
		boolean compatible = b[10] == 0 && b[11] == 0 && !(b[12] == 0 && b[13] == 0 && b[14] == 0);
		if (!mapped && !compatible) {
			return address;
		}
		try {
			return InetAddress.getByAddress(new byte[] { b[12], b[13], b[14], b[15] });
		}
		catch (UnknownHostException ex) {
			throw new IllegalStateException("Four bytes are an IPv4 address", ex);
		}
	}

	/** An endpoint URL's host that must not be sent to; the reason is a stable word. */
	static final class Refused extends RuntimeException {

		private final String reason;

		Refused(String reason) {
			super("Endpoint address refused: " + reason, null, false, false);
			this.reason = reason;
		}

		String reason() {
			return this.reason;
		}

	}

}
