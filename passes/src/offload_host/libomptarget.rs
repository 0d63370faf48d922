//! libomptarget's host-side types and functions, as clang and rustc spell
//! them (the counterpart of LLVM's `Frontend/Offloading/Utility.cpp`): one
//! small function per runtime object.

use inkwell::AddressSpace;
use inkwell::context::ContextRef;
use inkwell::module::{Linkage, Module};
use inkwell::types::{BasicType, FunctionType, PointerType, StructType};
use inkwell::values::FunctionValue;

use crate::ir::types::named_struct;

/// `KernelArgs` version emitted (3 passes the dyn pointer to the kernel).
pub const KERNEL_ARGS_VERSION: u64 = 3;
/// Constructor priority clang uses for offload registration.
pub const REGISTRATION_PRIORITY: u32 = 101;
/// `OffloadEntry` kind: OpenMP.
pub const OFFLOAD_KIND_OPENMP: u64 = 1;
/// `OffloadEntry` format version.
pub const OFFLOAD_ENTRY_VERSION: u64 = 1;
/// Module flag behavior `Max`, which clang uses for `!"openmp"`.
pub const MODULE_FLAG_MAX: u64 = 7;
/// The OpenMP version clang 22 records in `!"openmp"`.
pub const OPENMP_VERSION: u32 = 51;

/// The runtime's struct types.
pub struct Types<'ctx> {
    pub context: ContextRef<'ctx>,
    /// `%struct.__tgt_offload_entry` (`OffloadEntry`).
    pub offload_entry: StructType<'ctx>,
    /// `%__tgt_device_image`.
    pub device_image: StructType<'ctx>,
    /// `%__tgt_bin_desc`.
    pub bin_desc: StructType<'ctx>,
    /// `%struct.__tgt_kernel_arguments` (`KernelArgs`, version 3).
    pub kernel_args: StructType<'ctx>,
    /// `%struct.__offload_launch_config` (the v2 contract's `LaunchConfig`).
    pub launch_config: StructType<'ctx>,
}

impl<'ctx> Types<'ctx> {
    pub fn new(context: ContextRef<'ctx>) -> Types<'ctx> {
        let ptr = context
            .ptr_type(AddressSpace::default())
            .as_basic_type_enum();
        let (i16, i32, i64) = (
            context.i16_type().as_basic_type_enum(),
            context.i32_type().as_basic_type_enum(),
            context.i64_type().as_basic_type_enum(),
        );
        let dims = context.i32_type().array_type(3).as_basic_type_enum();
        Types {
            context,
            // Reserved, Version, Kind, Flags, Address, SymbolName, Size, Data, AuxAddr.
            offload_entry: named_struct(
                context,
                "struct.__tgt_offload_entry",
                &[i64, i16, i16, i32, ptr, ptr, i64, i64, ptr],
            ),
            // ImageStart, ImageEnd, EntriesBegin, EntriesEnd.
            device_image: named_struct(context, "__tgt_device_image", &[ptr, ptr, ptr, ptr]),
            // NumDeviceImages, DeviceImages, HostEntriesBegin, HostEntriesEnd.
            bin_desc: named_struct(context, "__tgt_bin_desc", &[i32, ptr, ptr, ptr]),
            // Version, NumArgs, ArgBasePtrs, ArgPtrs, ArgSizes, ArgTypes, ArgNames,
            // ArgMappers, Tripcount, Flags, NumTeams, ThreadLimit, DynCGroupMem.
            kernel_args: named_struct(
                context,
                "struct.__tgt_kernel_arguments",
                &[
                    i32, i32, ptr, ptr, ptr, ptr, ptr, ptr, i64, i64, dims, dims, i32,
                ],
            ),
            // version, reserved, teams, threads, dynamic shared memory, device, sizes.
            launch_config: named_struct(
                context,
                "struct.__offload_launch_config",
                &[i32, i32, dims, dims, i32, i64, ptr],
            ),
        }
    }

    pub fn ptr(&self) -> PointerType<'ctx> {
        self.context.ptr_type(AddressSpace::default())
    }

    /// Every runtime function the pass may declare, with its type.
    pub fn runtime_functions(&self) -> Vec<(&'static str, FunctionType<'ctx>)> {
        let c = self.context;
        let (ptr, i32, i64, void) = (
            self.ptr().into(),
            c.i32_type().into(),
            c.i64_type().into(),
            c.void_type(),
        );
        // (ident, device, count, base pointers, pointers, sizes, map types, names, mappers)
        let mapper = void.fn_type(&[ptr, i64, i32, ptr, ptr, ptr, ptr, ptr, ptr], false);
        vec![
            ("__tgt_target_data_begin_mapper", mapper),
            ("__tgt_target_data_end_mapper", mapper),
            ("__tgt_target_data_update_mapper", mapper),
            // (ident, device, num_teams, thread_limit, region id, kernel args) -> rc
            (
                "__tgt_target_kernel",
                c.i32_type().fn_type(&[ptr, i64, i32, i32, ptr, ptr], false),
            ),
            ("__tgt_register_lib", void.fn_type(&[ptr], false)),
            ("omp_get_num_devices", c.i32_type().fn_type(&[], false)),
            ("omp_get_default_device", c.i32_type().fn_type(&[], false)),
            // (host pointer, device) -> present
            (
                "omp_target_is_present",
                c.i32_type().fn_type(&[ptr, i32], false),
            ),
            // (bytes, device) -> device pointer or null
            ("omp_target_alloc", self.ptr().fn_type(&[i64, i32], false)),
            ("omp_target_free", void.fn_type(&[ptr, i32], false)),
            ("__tgt_unregister_lib", void.fn_type(&[ptr], false)),
            ("atexit", c.i32_type().fn_type(&[ptr], false)),
            ("fprintf", c.i32_type().fn_type(&[ptr, ptr], true)),
            ("abort", void.fn_type(&[], false)),
        ]
    }

    /// Declares (or finds) runtime function `name`; the module was checked
    /// to have no other function or global of that name when planning.
    pub fn function(&self, module: &Module<'ctx>, name: &str) -> FunctionValue<'ctx> {
        module.get_function(name).unwrap_or_else(|| {
            let ty = self
                .runtime_functions()
                .into_iter()
                .find(|(n, _)| *n == name)
                .map(|(_, ty)| ty)
                .expect("a known runtime function");
            module.add_function(name, ty, Some(Linkage::External))
        })
    }
}
