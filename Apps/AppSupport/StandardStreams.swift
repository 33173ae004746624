#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens `/dev/null` on each of standard input, output and error that the program was started
/// without (`todo <&-`), before anything else opens a file.
///
/// A closed descriptor 0, 1 or 2 is the lowest free one, so the next file the program opens
/// (a save, a database) would get it: reading "standard input" would read that file, printing
/// would write into it. With `/dev/null` there, a closed standard input reads as empty and
/// output to a closed stream goes nowhere.
public func reserveStandardStreams() {
  for descriptor in Int32(0)...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
    let opened = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
    if opened >= 0, opened != descriptor {
      dup2(opened, descriptor)
      close(opened)
    }
  }
}
