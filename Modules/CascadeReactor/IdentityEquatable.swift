/// An object equal only to itself: `==` compares identities (`===`), as ReactorKit's
/// `IdentityEquatable` does.
///
/// Mark a reactor with it to compare reactors by identity — a view that receives the same reactor
/// again need not rebind — whatever their states:
///
/// ```swift
/// final class ProfileReactor: Reactor, IdentityEquatable { … }
/// view.reactor == newReactor  // true only for the same object
/// ```
public protocol IdentityEquatable: AnyObject, Equatable {}

extension IdentityEquatable {
  /// Whether `lhs` and `rhs` are the same object.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs === rhs
  }
}

/// An object hashed and compared by identity, as ReactorKit's `IdentityHashable` is: for reactors
/// kept in sets or used as dictionary keys.
public protocol IdentityHashable: IdentityEquatable, Hashable {}

extension IdentityHashable {
  /// Hashes the object's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}
