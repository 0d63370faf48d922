//! Compile-fail tests: unsupported kernel signatures and argument types are
//! errors at the parameter, with a message saying what to do instead.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
