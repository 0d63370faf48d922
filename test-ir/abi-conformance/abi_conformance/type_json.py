"""Types from their JSON form (`Ty.json()`), as kernels and cases store them."""

from .aggregates import Array, Struct, Union, Wrapper
from .enums import CEnum, DataEnum
from .types import Opt, Ptr, Scalar, Slice


def ty_from_json(j):
    k = j[0]
    if k == "scalar":
        return Scalar(j[1])
    if k == "ptr":
        return Ptr(j[1], ty_from_json(j[2]))
    if k == "opt":
        return Opt(j[1], ty_from_json(j[2]))
    if k == "slice":
        return Slice(j[1], ty_from_json(j[2]))
    if k == "struct":
        return Struct([ty_from_json(f) for f in j[1]], j[2])
    if k == "wrapper":
        return Wrapper(ty_from_json(j[1]), j[2], j[3])
    if k == "array":
        return Array(ty_from_json(j[1]), j[2])
    if k == "union":
        return Union([ty_from_json(f) for f in j[1]])
    if k == "enum":
        return CEnum(j[1], j[2])
    if k == "dataenum":
        return DataEnum(j[1], [[ty_from_json(f) for f in v] for v in j[2]], j[3])
    raise ValueError(j)
