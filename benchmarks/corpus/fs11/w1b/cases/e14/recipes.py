from float8_linear import CastConfig, Float8LinearConfig, ScalingType

_disabled = CastConfig(scaling_type=ScalingType.DISABLED)

RECIPES = {
    "tensorwise": Float8LinearConfig(),
    "fp8_fwd_only": Float8LinearConfig(
        cast_config_grad_output=_disabled,
        cast_config_weight_for_grad_input=_disabled,
        cast_config_input_for_grad_weight=_disabled,
        cast_config_grad_output_for_grad_weight=_disabled,
    ),
    "hp_grad_weight": Float8LinearConfig(
        cast_config_input_for_grad_weight=_disabled,
        cast_config_grad_output_for_grad_weight=_disabled,
    ),
}


def recipe_from_name(name):
    return RECIPES[name]
