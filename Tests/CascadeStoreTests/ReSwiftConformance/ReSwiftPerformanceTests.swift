// ReSwift's PerformanceTests (ReSwift/ReSwift, ReSwiftTests/PerformanceTests.swift): not carried.
//
// - testNotify: times, with XCTest's `measure`, one dispatch to 3,000 subscribers; it asserts
//   nothing but the time. Cascade's store benchmarks live in Tooling/Benchmarks.
// - testSubscribe: times, with XCTest's `measure`, subscribing 3,000 subscribers; it asserts
//   nothing but the time.
