// bird-netcheck: the network path monitor from the command line (Linux).
//
//   bird-netcheck watch [--debounce-ms N] [--count N]
//       Prints the path (docs/NETWORK.md), then one line per change, until interrupted or N changes.
//   bird-netcheck record [--mutate]
//       Prints a recording file with the raw rtnetlink datagrams of a links, addresses and routes dump
//       (the fixtures in Tests/BirdRealtimeTests/NetlinkRecordings/*.txt). With --mutate, which
//       needs a fresh network namespace (`unshare -n bird-netcheck record --mutate`), it also sets
//       up loopback and default routes and records what each `ip` change emits.
//   bird-netcheck drill [--debounce-ms N] [--deadline-ms N]
//       In a fresh network namespace only (`unshare -n bird-netcheck drill`): starts the monitor,
//       removes and restores default routes and takes the link down and up with `ip`, and prints
//       one `step` line per change with the time the monitor took to report it. Exit status 0 when
//       every step was reported within the deadline (default 5000 ms), 1 otherwise, 2 on misuse.
//   bird-netcheck drill-client [--deadline-ms N] [--reconnect-deadline-ms N] [--quiet-ms N] [--verbose]
//                             [--without-monitor]
//       In a fresh network namespace only (`unshare -n bird-netcheck drill-client`): a real
//       BirdRealtime client (system monitor, TLS) and an embedded sandbox on 10.99.0.1 (an extra
//       address on lo, so not a loopback name). Adds an address (expect a ping at once), removes
//       the default route while connected (ping, socket lives), drops the socket at the edge
//       (expect unavailable / no network and no attempt for --quiet-ms, default 1500), restores
//       the route (expect connected within --reconnect-deadline-ms, default 1000, of the `ip`
//       command), releases the client (expect the monitor's thread gone). Prints one `step` line
//       per check with its figures; exit status as for `drill`. Needs `openssl` for the certificate.
//       --without-monitor runs the same client with `networkMonitor = .disabled`: the baseline,
//       whose steps fail (it retries into the void and pings only after the activity timeout).
//
// `record --mutate`, `drill` and `drill-client` refuse to run unless the namespace holds nothing but `lo`, so they
// never touch the host's network.
import Foundation

#if canImport(Glibc)
    let arguments = CommandLine.arguments.dropFirst()
    guard let mode = arguments.first else {
        fail(
            "usage: bird-netcheck watch|record|drill|drill-client [options] "
                + "(see the top of Sources/bird-netcheck/main.swift)")
    }
    let options = Options(arguments.dropFirst())
    switch mode {
    case "watch": watch(options)
    case "record": record(options)
    case "drill": exit(drill(options) ? 0 : 1)
    case "drill-client": exit(clientDrill(options) ? 0 : 1)
    default: fail("unknown mode '\(mode)' (watch, record, drill, drill-client)")
    }
#else
    fail("bird-netcheck needs Linux (rtnetlink)")
#endif
