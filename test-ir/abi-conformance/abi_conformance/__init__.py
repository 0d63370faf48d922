"""The randomized differential ABI conformance harness (abirun.py is its
command line): random Rust kernels and their HIP C equivalents, compiled by
rustc with the plugin and by clang, laid out, executed and compared.

Modules, by concept:
  The generator (deterministic in seed and kernel id)
    types        the type model's leaves: scalars, pointers, slices; align_to, walk
    aggregates   #[repr(C)] structs, single-field wrappers, arrays, unions
    enums        fieldless enums, enums with fields (RFC 2195 layouts)
    type_json    types from their JSON form
    typegen      random types
    values       random values of a type, their bytes in memory
    writes       writes into by-value arguments: targets, access paths, literals
    arena        the driver's fixed addresses (arena, record, fill byte)
    kernel       a kernel: parameters, body, record, kernarg and record bytes
    rust_source  a kernel as rustc 1.95 #![no_core] Rust, layout checked by consts
    c_source     a kernel as HIP C for clang 22, layout checked by static_assert
    generate     kernels from (seed, id), the two crates of a batch
  The runner
    settings     compile settings (rustc flags, where the passes run), run options
    toolchain    running the tools, their first error, the harness's exceptions
    layout       explicit kernel arguments from llc-22's .amdhsa.kernels
    execution    lowered AMDGPU IR retargeted to x86_64, run by driver.c
    sides        clang's side and the plugin's side of a batch (bisecting crashes)
    selftest     wrong kernarg layouts the execution check must notice
    classify     a kernel's status at a setting
    classes      failure classes (the parameter and the symptom)
    causes       root causes (known bugs and limits) of a failure
    batch        one batch through every setting; one kernel through one setting
    reduce       minimising a failing kernel
    cases        the stored cases (cases/*.json): write, load, check, update
    summary      the printed summary and the JSON report
    cli          the command line
"""
