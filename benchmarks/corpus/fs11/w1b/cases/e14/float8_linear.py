import enum
from dataclasses import dataclass, field

import torch
import torch.nn as nn

E4M3_MAX = torch.finfo(torch.float8_e4m3fn).max
E5M2_MAX = torch.finfo(torch.float8_e5m2).max


class ScalingType(enum.Enum):
    DYNAMIC = "dynamic"
    DISABLED = "disabled"


@dataclass(frozen=True)
class CastConfig:
    scaling_type: ScalingType = ScalingType.DYNAMIC
    target_dtype: torch.dtype = torch.float8_e4m3fn


@dataclass(frozen=True)
class Float8LinearConfig:
    cast_config_input: CastConfig = field(default_factory=CastConfig)
    cast_config_weight: CastConfig = field(default_factory=CastConfig)
    cast_config_grad_output: CastConfig = field(
        default_factory=lambda: CastConfig(target_dtype=torch.float8_e5m2))
    cast_config_input_for_grad_weight: CastConfig = field(default_factory=CastConfig)
    cast_config_weight_for_grad_input: CastConfig = field(default_factory=CastConfig)
    cast_config_grad_output_for_grad_weight: CastConfig = field(
        default_factory=lambda: CastConfig(target_dtype=torch.float8_e5m2))


def hp_tensor_to_float8_dynamic(hp_tensor, float8_dtype, compute_dtype):
    """Emulated float8 cast: scale by amax, round through float8, return in the gemm dtype."""
    max_val = E4M3_MAX if float8_dtype == torch.float8_e4m3fn else E5M2_MAX
    amax = hp_tensor.detach().abs().max().float().clamp(min=1e-12)
    scale = max_val / amax
    fp8 = (hp_tensor.float() * scale).clamp(-max_val, max_val).to(float8_dtype)
    return (fp8.float() / scale).to(compute_dtype)


def _maybe_cast(t, cfg, compute_dtype):
    if cfg.scaling_type is ScalingType.DISABLED:
        return t
    return hp_tensor_to_float8_dynamic(t, cfg.target_dtype, compute_dtype)


class matmul_with_hp_or_float8_args(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input_hp, weight_hp_t, config):
        ctx.save_for_backward(input_hp, weight_hp_t)
        ctx.config = config
        compute_dtype = input_hp.dtype
        orig_shape = input_hp.shape
        input_2d = input_hp.reshape(-1, orig_shape[-1])
        input_maybe_fp8 = _maybe_cast(input_2d, config.cast_config_input, compute_dtype)
        weight_maybe_fp8_t = _maybe_cast(weight_hp_t, config.cast_config_weight, compute_dtype)
        res_bits = torch.mm(input_maybe_fp8, weight_maybe_fp8_t)
        return res_bits.reshape(*orig_shape[:-1], res_bits.shape[-1])

    @staticmethod
    def backward(ctx, grad_output):
        input_hp, weight_hp_t = ctx.saved_tensors
        c = ctx.config
        compute_dtype = grad_output.dtype
        go_shape = grad_output.shape
        grad_output_2d = grad_output.reshape(-1, go_shape[-1])

        # calculate grad_input
        if c.cast_config_grad_output.scaling_type is ScalingType.DISABLED:
            grad_output_maybe_fp8_dim0 = grad_output_2d
        else:
            grad_output_maybe_fp8_dim0 = hp_tensor_to_float8_dynamic(
                grad_output_2d, c.cast_config_grad_output.target_dtype, compute_dtype)
        if c.cast_config_weight_for_grad_input.scaling_type is ScalingType.DISABLED:
            weight_t_maybe_fp8_dim0 = weight_hp_t
        else:
            weight_t_maybe_fp8_dim0 = hp_tensor_to_float8_dynamic(
                weight_hp_t, c.cast_config_weight_for_grad_input.target_dtype, compute_dtype)
        grad_input = torch.mm(grad_output_maybe_fp8_dim0, weight_t_maybe_fp8_dim0.t())
        grad_input = grad_input.reshape(*go_shape[:-1], grad_input.shape[-1])

        # calculate grad_weight
        input_2d = input_hp.reshape(-1, input_hp.shape[-1])
        go_for_gw = _maybe_cast(grad_output_2d, c.cast_config_grad_output_for_grad_weight, compute_dtype)
        input_for_gw = _maybe_cast(input_2d, c.cast_config_input_for_grad_weight, compute_dtype)
        grad_weight = torch.mm(go_for_gw.t(), input_for_gw.to(go_for_gw.dtype)).t()
        return grad_input, grad_weight.to(weight_hp_t.dtype), None


class Float8Linear(nn.Linear):
    def __init__(self, *args, config=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.config = config or Float8LinearConfig()

    def forward(self, input):
        if torch.is_autocast_enabled(input.device.type):
            autocast_dtype = torch.get_autocast_dtype(input.device.type)
            input = input.to(autocast_dtype)
        output = matmul_with_hp_or_float8_args.apply(input, self.weight.t(), self.config)
        if self.bias is not None:
            output = output + self.bias.to(output.dtype)
        return output

    @classmethod
    def from_float(cls, mod, config):
        new = cls(mod.in_features, mod.out_features, bias=mod.bias is not None, config=config)
        new.weight = mod.weight
        new.bias = mod.bias
        return new


def convert_to_float8_training(module, config, module_filter_fn=None, prefix=""):
    for name, child in module.named_children():
        fqn = f"{prefix}.{name}" if prefix else name
        if isinstance(child, nn.Linear) and (module_filter_fn is None or module_filter_fn(child, fqn)):
            setattr(module, name, Float8Linear.from_float(child, config))
        else:
            convert_to_float8_training(child, config, module_filter_fn, fqn)
    return module
