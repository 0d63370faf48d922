//! Module-level additions, named after LLVM's `ModuleUtils`: global
//! constructors, `llvm.compiler.used`, module flags.

use inkwell::AddressSpace;
use inkwell::module::Module;
use inkwell::values::{FunctionValue, GlobalValue};
use llvm_sys::core as llvm;
use llvm_sys::prelude::LLVMValueRef;

use super::constants::aggregate_elements;
use super::handles::{Type, Value};

/// `appendToGlobalCtors`: adds `{ i32 priority, ptr function, ptr data }`
/// to `@llvm.global_ctors` (`data` null without one), keeping the entries
/// already there (and their element type: an old two-field form stays two
/// fields). On ELF the `.init_array` entry goes into the comdat of `data`.
pub fn append_global_ctor(
    module: &Module<'_>,
    function: FunctionValue<'_>,
    priority: u32,
    data: Option<GlobalValue<'_>>,
) {
    let context = module.get_context();
    let ptr = context.ptr_type(AddressSpace::default());
    let i32_type = context.i32_type();
    let default_entry = context.struct_type(&[i32_type.into(), ptr.into(), ptr.into()], false);
    append_to_appending_global(
        module,
        "llvm.global_ctors",
        default_entry.into(),
        None,
        |entry| {
            let mut fields = vec![
                i32_type.const_int(priority.into(), false).into(),
                Value::from(function.as_global_value().as_pointer_value()),
            ];
            // SAFETY: `entry` is a live struct type (the array's element type).
            let field_count = unsafe { llvm::LLVMCountStructElementTypes(entry.as_raw()) };
            if field_count > 2 {
                fields.push(match data {
                    Some(global) => Value::from(global.as_pointer_value()),
                    None => ptr.const_null().into(),
                });
            }
            let mut raw: Vec<LLVMValueRef> = fields.iter().map(|v| v.as_raw()).collect();
            // SAFETY: fields of the struct's element types, in order.
            vec![unsafe {
                Value::from_raw(llvm::LLVMConstNamedStruct(
                    entry.as_raw(),
                    raw.as_mut_ptr(),
                    raw.len() as u32,
                ))
            }]
        },
    );
}

/// `appendToCompilerUsed`: keeps `globals` alive until the object file.
pub fn append_compiler_used<'ctx>(module: &Module<'ctx>, globals: &[GlobalValue<'ctx>]) {
    append_to_used_list(module, "llvm.compiler.used", globals);
}

/// `appendToUsed`: keeps `globals` alive through the object file and the
/// linker's garbage collection (ELF `SHF_GNU_RETAIN`).
pub fn append_used<'ctx>(module: &Module<'ctx>, globals: &[GlobalValue<'ctx>]) {
    append_to_used_list(module, "llvm.used", globals);
}

/// The element is a generic `ptr`: globals in other address spaces are cast.
fn append_to_used_list<'ctx>(module: &Module<'ctx>, name: &str, globals: &[GlobalValue<'ctx>]) {
    let ptr = module.get_context().ptr_type(AddressSpace::default());
    append_to_appending_global(module, name, ptr.into(), Some("llvm.metadata"), |_| {
        globals
            .iter()
            .map(|g| {
                let pointer = g.as_pointer_value();
                if pointer.get_type() == ptr {
                    Value::from(pointer)
                } else {
                    Value::from(pointer.const_address_space_cast(ptr))
                }
            })
            .collect()
    });
}

/// Rebuilds appending global `name` as its old elements + `new(element type)`.
fn append_to_appending_global<'ctx>(
    module: &Module<'ctx>,
    name: &str,
    default_element: Type<'ctx>,
    section: Option<&str>,
    new: impl FnOnce(Type<'ctx>) -> Vec<Value<'ctx>>,
) {
    let old = module.get_global(name);
    let (element, mut elements) = match old {
        Some(g) => {
            let old_value = Value::from(g);
            // SAFETY: a live global's value type (an array) and initializer.
            unsafe {
                let array = llvm::LLVMGlobalGetValueType(old_value.as_raw());
                let init = Value::from_raw_opt(llvm::LLVMGetInitializer(old_value.as_raw()));
                (
                    Type::from_raw(llvm::LLVMGetElementType(array)),
                    init.map(aggregate_elements).unwrap_or_default(),
                )
            }
        }
        None => (default_element, Vec::new()),
    };
    elements.extend(new(element));
    let mut raw: Vec<LLVMValueRef> = elements.iter().map(|v| v.as_raw()).collect();
    // SAFETY: constants of the element type build the array; the old global
    // has no users besides its name and is deleted once the replacement is
    // ready, before it takes the name.
    unsafe {
        let array = llvm::LLVMConstArray2(element.as_raw(), raw.as_mut_ptr(), raw.len() as u64);
        let global =
            llvm::LLVMAddGlobal(module.as_mut_ptr(), llvm::LLVMTypeOf(array), c"".as_ptr());
        llvm::LLVMSetInitializer(global, array);
        llvm::LLVMSetLinkage(global, llvm_sys::LLVMLinkage::LLVMAppendingLinkage);
        if let Some(section) = section {
            let section = std::ffi::CString::new(section).expect("section name has no NUL");
            llvm::LLVMSetSection(global, section.as_ptr());
        }
        if let Some(old) = old {
            Value::from(old).set_name("");
            llvm::LLVMDeleteGlobal(Value::from(old).as_raw());
        }
        llvm::LLVMSetValueName2(global, name.as_ptr().cast(), name.len());
    }
}

/// `Module::addModuleFlag`: `!{i32 behavior, !"key", i32 value}` in
/// `!llvm.module.flags`. Raw, because the C API's flag behaviours lack
/// `Max` (7), which clang uses for `"openmp"`.
pub fn add_module_flag(module: &Module<'_>, behavior: u32, key: &str, value: u32) {
    let i32_type = module.get_context().i32_type();
    // SAFETY: metadata built in the module's live context and attached by name.
    unsafe {
        let ctx = llvm::LLVMGetModuleContext(module.as_mut_ptr());
        let mut operands = [
            llvm::LLVMValueAsMetadata(
                Value::from(i32_type.const_int(behavior.into(), false)).as_raw(),
            ),
            llvm::LLVMMDStringInContext2(ctx, key.as_ptr().cast(), key.len()),
            llvm::LLVMValueAsMetadata(
                Value::from(i32_type.const_int(value.into(), false)).as_raw(),
            ),
        ];
        let node = llvm::LLVMMDNodeInContext2(ctx, operands.as_mut_ptr(), operands.len());
        llvm::LLVMAddNamedMetadataOperand(
            module.as_mut_ptr(),
            c"llvm.module.flags".as_ptr(),
            llvm::LLVMMetadataAsValue(ctx, node),
        );
    }
}

/// Module flag `key` as (behavior, value), each `None` when it is no
/// integer; `None` when the module has no such flag.
pub fn module_flag(module: &Module<'_>, key: &str) -> Option<(Option<u64>, Option<u64>)> {
    let name = c"llvm.module.flags";
    // SAFETY: the named metadata's operands are copied out; each is a live
    // metadata-as-value of a flag node (or null).
    let flags: Vec<LLVMValueRef> = unsafe {
        let count =
            llvm::LLVMGetNamedMetadataNumOperands(module.as_mut_ptr(), name.as_ptr()) as usize;
        let mut flags = vec![std::ptr::null_mut(); count];
        llvm::LLVMGetNamedMetadataOperands(module.as_mut_ptr(), name.as_ptr(), flags.as_mut_ptr());
        flags
    };
    flags.into_iter().find_map(|flag| {
        // SAFETY: a live value (null filtered), read as metadata.
        let node = unsafe {
            super::handles::Metadata::from_raw_opt(llvm::LLVMValueAsMetadata(
                Value::from_raw_opt(flag)?.as_raw(),
            ))
        }?;
        let operands = super::metadata::operand_values(module, node);
        let [behavior, Some(flag_key), value] = operands[..] else {
            return None;
        };
        // SAFETY: LLVMGetMDString returns null for anything but an MDString.
        let text = unsafe {
            let mut len = 0u32;
            let ptr = llvm::LLVMGetMDString(flag_key.as_raw(), &mut len);
            if ptr.is_null() {
                return None;
            }
            std::slice::from_raw_parts(ptr.cast::<u8>(), len as usize)
        };
        (text == key.as_bytes()).then(|| {
            (
                super::metadata::integer(behavior),
                super::metadata::integer(value),
            )
        })
    })
}
