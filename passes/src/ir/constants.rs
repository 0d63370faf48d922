//! Constants: the bytes an initializer holds, and byte arrays built from a
//! buffer.

use inkwell::module::Module;
use inkwell::targets::TargetData;
use inkwell::values::BasicValueEnum;
use llvm_sys::LLVMTypeKind;
use llvm_sys::core as llvm;
use llvm_sys::target as t;

use super::handles::Value;

/// Elements of a constant aggregate (array, struct, vector, data array):
/// inkwell cannot read them.
pub fn aggregate_elements(constant: Value<'_>) -> Vec<Value<'_>> {
    let ty = constant.ty().as_raw();
    // SAFETY: `constant` is live; element i < count exists or is null.
    unsafe {
        let count = match llvm::LLVMGetTypeKind(ty) {
            LLVMTypeKind::LLVMArrayTypeKind => llvm::LLVMGetArrayLength2(ty) as u32,
            LLVMTypeKind::LLVMStructTypeKind => llvm::LLVMCountStructElementTypes(ty),
            LLVMTypeKind::LLVMVectorTypeKind => llvm::LLVMGetVectorSize(ty),
            _ => 0,
        };
        (0..count)
            .filter_map(|i| {
                Value::from_raw_opt(llvm::LLVMGetAggregateElement(constant.as_raw(), i))
            })
            .collect()
    }
}

/// A part of a constant that holds no integer bits: at which byte, and the
/// part as IR text (`ptr @x`, `ptrtoint (ptr @x to i64)`, `float 1.0`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotIntegerBytes {
    pub offset: u64,
    pub text: String,
}

/// The bytes constant `value` occupies in memory under `layout` (padding
/// zero): integers, zero/undef/poison and aggregates of them. A pointer,
/// float or constant expression anywhere is an error naming it.
pub fn constant_bytes(value: Value<'_>, layout: &TargetData) -> Result<Vec<u8>, NotIntegerBytes> {
    // SAFETY: the size of a live value's type under a live data layout.
    let size = unsafe { t::LLVMABISizeOfType(layout.as_mut_ptr(), value.ty().as_raw()) };
    let mut out = vec![0u8; size as usize];
    write_constant(value, layout, 0, &mut out)?;
    Ok(out)
}

fn write_constant(
    value: Value<'_>,
    layout: &TargetData,
    at: u64,
    out: &mut [u8],
) -> Result<(), NotIntegerBytes> {
    let raw = value.as_raw();
    let ty = value.ty().as_raw();
    // SAFETY: every call inspects a live constant or its type; slices stay in
    // bounds: offsets come from the same data layout as `out`'s size, and
    // every slice start is clamped to the buffer.
    unsafe {
        let td = layout.as_mut_ptr();
        if !llvm::LLVMIsAConstantAggregateZero(raw).is_null()
            || !llvm::LLVMIsAUndefValue(raw).is_null()
        {
            return Ok(()); // already zero
        }
        if !llvm::LLVMIsAConstantInt(raw).is_null() && llvm::LLVMGetIntTypeWidth(ty) <= 64 {
            let bits = llvm::LLVMConstIntGetZExtValue(raw);
            let n = (t::LLVMStoreSizeOfType(td, ty) as usize)
                .min(out.len())
                .min(8);
            let bytes = match t::LLVMByteOrder(td) {
                t::LLVMByteOrdering::LLVMBigEndian => bits.to_be_bytes()[8 - n..].to_vec(),
                t::LLVMByteOrdering::LLVMLittleEndian => bits.to_le_bytes()[..n].to_vec(),
            };
            out[..n].copy_from_slice(&bytes);
            return Ok(());
        }
        let kind = llvm::LLVMGetTypeKind(ty);
        let is_aggregate_type = matches!(
            kind,
            LLVMTypeKind::LLVMArrayTypeKind
                | LLVMTypeKind::LLVMStructTypeKind
                | LLVMTypeKind::LLVMVectorTypeKind
        );
        let is_constant_aggregate = !llvm::LLVMIsAConstantDataSequential(raw).is_null()
            || !llvm::LLVMIsAConstantArray(raw).is_null()
            || !llvm::LLVMIsAConstantStruct(raw).is_null()
            || !llvm::LLVMIsAConstantVector(raw).is_null();
        if !(is_aggregate_type && is_constant_aggregate) {
            return Err(NotIntegerBytes {
                offset: at,
                text: value.text(),
            });
        }
        // A byte string (rustc's form of a static): copy it in one go.
        let element = llvm::LLVMGetElementType(ty);
        if kind == LLVMTypeKind::LLVMArrayTypeKind
            && !llvm::LLVMIsAConstantDataSequential(raw).is_null()
            && llvm::LLVMGetTypeKind(element) == LLVMTypeKind::LLVMIntegerTypeKind
            && llvm::LLVMGetIntTypeWidth(element) == 8
        {
            let mut len = 0usize;
            let data = llvm::LLVMGetAsString(raw, &mut len);
            let n = len.min(out.len());
            out[..n].copy_from_slice(std::slice::from_raw_parts(data.cast::<u8>(), n));
            return Ok(());
        }
        for (i, element) in aggregate_elements(value).into_iter().enumerate() {
            let offset = if kind == LLVMTypeKind::LLVMStructTypeKind {
                t::LLVMOffsetOfElement(td, ty, i as u32)
            } else {
                i as u64 * t::LLVMABISizeOfType(td, element.ty().as_raw())
            };
            let start = (offset as usize).min(out.len());
            write_constant(element, layout, at + offset, &mut out[start..])?;
        }
        Ok(())
    }
}

/// A constant holding exactly `bytes` in memory, built from the buffer
/// without a value per byte: `[N x i64]` words, with any tail bytes in a
/// packed `<{ [N x i64], [M x i8] }>`, when the target's byte order is the
/// one this process runs with (LLVM takes the words in host order), else
/// `[N x i8]`. (LLVM's bitcode writer spends a record element per array
/// element: words take an eighth of the memory and time of bytes.)
pub fn const_byte_array<'ctx>(module: &Module<'ctx>, bytes: &[u8]) -> BasicValueEnum<'ctx> {
    let big_endian_target = super::types::target_data(module).get_byte_ordering()
        == inkwell::targets::ByteOrdering::BigEndian;
    let same_order = big_endian_target == cfg!(target_endian = "big");
    let whole = bytes.len() / 8 * 8;
    // SAFETY: the data pointers are valid for the lengths given; LLVM copies
    // them into constants of the module's live context.
    unsafe {
        let context = llvm::LLVMGetModuleContext(module.as_mut_ptr());
        let string = |part: &[u8]| {
            llvm::LLVMConstStringInContext2(context, part.as_ptr().cast(), part.len(), 1)
        };
        if !same_order || whole == 0 {
            return BasicValueEnum::new(string(bytes));
        }
        let words = llvm::LLVMConstDataArray(
            llvm::LLVMInt64TypeInContext(context),
            bytes.as_ptr().cast(),
            whole,
        );
        if whole == bytes.len() {
            return BasicValueEnum::new(words);
        }
        let mut parts = [words, string(&bytes[whole..])];
        BasicValueEnum::new(llvm::LLVMConstStructInContext(
            context,
            parts.as_mut_ptr(),
            2,
            1,
        ))
    }
}

/// A constant holding the concatenation of `parts`, each built with
/// [`const_byte_array`] (so a large part is never copied into one buffer):
/// one part's constant, or a packed struct of the non-empty parts.
pub fn const_byte_parts<'ctx, P: AsRef<[u8]>>(
    module: &Module<'ctx>,
    parts: &[P],
) -> BasicValueEnum<'ctx> {
    let values: Vec<BasicValueEnum<'ctx>> = parts
        .iter()
        .map(AsRef::as_ref)
        .filter(|p| !p.is_empty())
        .map(|p| const_byte_array(module, p))
        .collect();
    if let [one] = values.as_slice() {
        return *one;
    }
    module.get_context().const_struct(&values, true).into()
}

#[cfg(test)]
mod tests {
    use inkwell::context::Context;

    use super::{const_byte_array, const_byte_parts, constant_bytes};
    use crate::ir::handles::Value;
    use crate::ir::types::target_data;
    use crate::test_support::parse;

    #[test]
    fn const_byte_array_holds_exactly_the_bytes() {
        let context = Context::create();
        let module = parse(&context, "target datalayout = \"e-i64:64\"\n");
        let layout = target_data(&module);
        for len in [0usize, 3, 8, 11, 16, 1001] {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 37 % 251) as u8).collect();
            let value = const_byte_array(&module, &bytes);
            assert_eq!(
                constant_bytes(Value::from(value), &layout).unwrap(),
                bytes,
                "{len} bytes"
            );
        }
        // In parts: the same bytes, concatenated.
        let parts: [&[u8]; 3] = [&[1, 2, 3], &[], &[4, 5, 6, 7, 8, 9, 10, 11, 12]];
        let joined = const_byte_parts(&module, &parts);
        assert_eq!(
            constant_bytes(Value::from(joined), &layout).unwrap(),
            (1..=12).collect::<Vec<u8>>()
        );
        // Whole words are i64s: the bitcode writer's cheap form.
        let words = const_byte_array(&module, &[1, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(words.get_type().print_to_string().to_string(), "[1 x i64]");
    }

    #[test]
    fn a_pointer_word_is_named_with_its_offset() {
        let context = Context::create();
        let module = parse(
            &context,
            "target datalayout = \"e-i64:64\"\n@x = global i8 0\n@d = constant [2 x i64] [i64 1, i64 ptrtoint (ptr @x to i64)]\n",
        );
        let init = module.get_global("d").unwrap().get_initializer().unwrap();
        let err = constant_bytes(Value::from(init), &target_data(&module)).unwrap_err();
        assert_eq!(err.offset, 8);
        assert_eq!(err.text, "i64 ptrtoint (ptr @x to i64)");
    }
}
