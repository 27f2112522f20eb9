from typing import Callable, Dict, List, Sequence

import torch.nn as nn


def generate_param_groups(
    network: nn.Module,
    layer_matches: Sequence[Callable],
    match_types: Sequence[str],
    lr_values: Sequence[float],
    include_others: bool = True,
) -> List[Dict]:
    """Build optimizer param groups: one group per matcher, plus the remaining parameters."""
    params = []
    _layers = []
    for func, ty, lr in zip(layer_matches, match_types, lr_values):
        if ty.lower() == "select":
            layer_params = func(network).parameters()
        elif ty.lower() == "filter":
            layer_params = (p for n, p in network.named_parameters() if func(n))
        else:
            raise ValueError(f"unsupported layer match type: {ty}.")

        params.append({"params": layer_params, "lr": lr})
        _layers.extend(list(map(id, layer_params)))

    if include_others:
        params.append({"params": [p for p in network.parameters() if id(p) not in _layers]})

    return params
