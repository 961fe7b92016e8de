package dev.payonce.event;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Resolves a host name (or an IP literal) to its addresses. The system resolver by
 * default; tests give their own, so that no test depends on DNS or ever names an address
 * it would connect to outside 127.0.0.0/8.
 */
@FunctionalInterface
public interface HostResolver {

	/**
	 * Every address of {@code host}.
	 * @param host a name or an IP literal (IPv6 without brackets)
	 * @return at least one address
	 * @throws UnknownHostException if it resolves to none
	 */
	List<InetAddress> resolve(String host) throws UnknownHostException;

	/**
	 * The system resolver ({@link InetAddress#getAllByName}).
	 * @return the resolver
	 */
	static HostResolver system() {
		return (host) -> List.of(InetAddress.getAllByName(host));
	}

}
