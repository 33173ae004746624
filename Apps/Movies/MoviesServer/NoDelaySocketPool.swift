import FlyingFox
import FlyingSocks

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// FlyingFox's socket pool, turning Nagle's algorithm off on every socket it sees.
///
/// FlyingFox sends an answer in two writes, the status line and headers, then the body. With
/// Nagle's algorithm on, the kernel holds the body back until the client acknowledges the
/// headers, and a client delays that acknowledgement (40 ms on Linux) while it waits for more:
/// every answer on a kept-alive connection but the first took about 40 ms on loopback, whatever
/// the client. `TCP_NODELAY` sends the body at once, as HTTP servers do.
///
/// The listening socket waits in the pool for connections, so it gets the option before it
/// accepts them, and they inherit it; a connection also gets it the first time it waits for a
/// request, in case it was accepted before the listener waited.
struct NoDelaySocketPool<Base: AsyncSocketPool>: AsyncSocketPool {
  /// FlyingFox's pool, which does the waiting.
  let base: Base

  func prepare() async throws {
    try await base.prepare()
  }

  func run() async throws {
    try await base.run()
  }

  func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
    // A Unix-domain socket has no such option: the failure changes nothing.
    try? socket.setValue(true, for: BoolSocketOption(level: Int32(IPPROTO_TCP), name: TCP_NODELAY))
    try await base.suspendSocket(socket, untilReadyFor: events)
  }
}
