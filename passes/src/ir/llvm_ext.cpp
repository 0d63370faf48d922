// The few LLVM operations the passes need that LLVM's C API lacks, as
// C functions over C API handles (`ir/signature.rs` and
// `amdgpu_kernel_abi/debug_info.rs` wrap them for Rust). Pass logic stays
// in Rust; each function here is one LLVM C++ call sequence.
//
// Every function takes untrusted IR: it checks kinds with dyn_cast, never
// cast (a release LLVM does not check a cast).

#include "llvm-c/Core.h"
#include "llvm-c/DebugInfo.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

using namespace llvm;

extern "C" {

// A function of type `FnTy` that takes the place of `OldF`: created right
// before it in the module, with its linkage, address space and everything
// Function::copyAttributesFrom copies (calling convention, visibility,
// dso_local, unnamed_addr, section, partition, alignment, GC, personality,
// prefix and prologue data), its comdat, metadata and name, the old
// function and return attributes, and `Counts[i]` attributes from `Attrs`
// for each new parameter i: one AttributeList built once, where the C API
// rebuilds the list for every attribute added. The body moves over; the
// old function is left without body or name, for the caller to retarget
// parameter uses and erase.
LLVMValueRef offload_ir_replace_function(LLVMValueRef OldF, LLVMTypeRef FnTy,
                                         const LLVMAttributeRef *Attrs,
                                         const unsigned *Counts,
                                         unsigned NumParams) {
  auto *Old = dyn_cast_or_null<Function>(unwrap(OldF));
  auto *Ty = dyn_cast_or_null<FunctionType>(unwrap(FnTy));
  if (!Old || !Ty || !Old->getParent() || Ty->getNumParams() != NumParams)
    return nullptr;
  LLVMContext &Ctx = Old->getContext();
  Function *New = Function::Create(Ty, Old->getLinkage(),
                                   Old->getAddressSpace(), "");
  Old->getParent()->getFunctionList().insert(Old->getIterator(), New);
  New->copyAttributesFrom(Old);
  // (copyAttributesFrom leaves comdat membership to the caller.)
  New->setComdat(Old->getComdat());
  New->copyMetadata(Old, 0);
  AttributeList OldAttrs = Old->getAttributes();
  SmallVector<AttributeSet, 16> Params;
  for (unsigned I = 0, At = 0; I < NumParams; At += Counts[I], ++I) {
    AttrBuilder B(Ctx);
    for (unsigned J = 0; J < Counts[I]; ++J)
      B.addAttribute(unwrap(Attrs[At + J]));
    Params.push_back(AttributeSet::get(Ctx, B));
  }
  New->setAttributes(AttributeList::get(Ctx, OldAttrs.getFnAttrs(),
                                        OldAttrs.getRetAttrs(), Params));
  New->splice(New->begin(), Old);
  New->takeName(Old);
  return wrap(New);
}

// --- Debug info, through the DI classes' own accessors (operand positions
// are theirs to change). Null when the node is not of the class asked for.

// DISubprogram::getType (a DISubroutineType).
LLVMMetadataRef offload_di_subprogram_type(LLVMMetadataRef SP) {
  auto *S = dyn_cast_or_null<DISubprogram>(unwrap(SP));
  return S ? wrap(dyn_cast_or_null<DISubroutineType>(S->getRawType()))
           : nullptr;
}

// The type list of a DISubroutineType (return type first), or of a
// DICompositeType's elements: the tuple, for offload_di_tuple_*.
LLVMMetadataRef offload_di_subroutine_types(LLVMMetadataRef T) {
  auto *S = dyn_cast_or_null<DISubroutineType>(unwrap(T));
  return S ? wrap(dyn_cast_or_null<MDTuple>(S->getRawTypeArray())) : nullptr;
}

LLVMMetadataRef offload_di_composite_elements(LLVMMetadataRef T) {
  auto *C = dyn_cast_or_null<DICompositeType>(unwrap(T));
  return C ? wrap(dyn_cast_or_null<MDTuple>(C->getRawElements())) : nullptr;
}

unsigned offload_di_tuple_size(LLVMMetadataRef Tuple) {
  auto *T = dyn_cast_or_null<MDTuple>(unwrap(Tuple));
  return T ? T->getNumOperands() : 0;
}

// Operand I of a tuple (null for a null operand or past the end).
LLVMMetadataRef offload_di_tuple_at(LLVMMetadataRef Tuple, unsigned I) {
  auto *T = dyn_cast_or_null<MDTuple>(unwrap(Tuple));
  return T && I < T->getNumOperands() ? wrap(T->getOperand(I).get()) : nullptr;
}

// The base type of a derived type (typedef, qualifier, pointer, member) or
// of a composite (an array's element type, an enum's underlying type).
LLVMMetadataRef offload_di_base_type(LLVMMetadataRef T) {
  Metadata *MD = unwrap(T);
  if (auto *D = dyn_cast_or_null<DIDerivedType>(MD))
    return wrap(dyn_cast_or_null<DIType>(D->getRawBaseType()));
  if (auto *C = dyn_cast_or_null<DICompositeType>(MD))
    return wrap(dyn_cast_or_null<DIType>(C->getRawBaseType()));
  return nullptr;
}

// 1 when the composite type has a variant part (a Rust enum): its storage
// is not a list of fields.
int offload_di_is_variant_part(LLVMMetadataRef T) {
  auto *C = dyn_cast_or_null<DICompositeType>(unwrap(T));
  return C && C->getTag() == dwarf::DW_TAG_variant_part;
}

} // extern "C"

extern "C" {
// The DW_ATE_* encoding of a DIBasicType; 0 for anything else.
unsigned offload_di_basic_encoding(LLVMMetadataRef T) {
  auto *B = dyn_cast_or_null<DIBasicType>(unwrap(T));
  return B ? B->getEncoding() : 0;
}
} // extern "C"

extern "C" {
// 1 when a DISubprogram says its function was optimized (rustc and clang
// set the flag from the optimization level).
int offload_di_subprogram_is_optimized(LLVMMetadataRef SP) {
  auto *S = dyn_cast_or_null<DISubprogram>(unwrap(SP));
  return S && S->isOptimized();
}
} // extern "C"

extern "C" {
// The discriminator member of a DW_TAG_variant_part (Rust enums): the
// artificial member holding the tag, or the niche field's bytes.
LLVMMetadataRef offload_di_discriminator(LLVMMetadataRef VariantPart) {
  auto *C = dyn_cast_or_null<DICompositeType>(unwrap(VariantPart));
  return C ? wrap(dyn_cast_or_null<DIDerivedType>(C->getRawDiscriminator()))
           : nullptr;
}
} // extern "C"
