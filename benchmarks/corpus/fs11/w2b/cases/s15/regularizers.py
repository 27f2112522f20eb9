from abc import abstractmethod
from typing import Iterable, Optional

import torch
from torch import nn


class Regularizer(nn.Module):
    """A base class for all regularizers."""

    def __init__(self, weight: float = 1.0, apply_only_once: bool = False,
                 parameters: Optional[Iterable[nn.Parameter]] = None):
        super().__init__()
        self.tracked_parameters = list(parameters) if parameters else []
        self.register_buffer(name="weight", tensor=torch.as_tensor(weight))
        self.apply_only_once = apply_only_once
        self.regularization_term = torch.zeros(1, dtype=torch.float)
        self.updated = False
        self.reset()

    def add_parameter(self, parameter: nn.Parameter) -> None:
        self.tracked_parameters.append(parameter)

    def reset(self) -> None:
        """Reset the regularization term to zero."""
        self.regularization_term.detach_().zero_()
        self.updated = False

    @abstractmethod
    def forward(self, x: torch.FloatTensor) -> torch.FloatTensor:
        raise NotImplementedError

    def update(self, *tensors: torch.FloatTensor) -> None:
        if not self.training or not torch.is_grad_enabled() or (self.apply_only_once and self.updated):
            return
        self.regularization_term = self.regularization_term + sum(self.forward(x=x) for x in tensors)
        self.updated = True

    @property
    def term(self) -> torch.FloatTensor:
        return self.regularization_term * self.weight

    def pop_regularization_term(self) -> torch.FloatTensor:
        """Return the weighted regularization term, and reset the regularizer afterwards."""
        if self.tracked_parameters:
            self.update(*self.tracked_parameters)
        term = self.regularization_term
        self.reset()
        return self.weight * term


class NoRegularizer(Regularizer):
    def update(self, *tensors: torch.FloatTensor) -> None:
        pass

    def forward(self, x: torch.FloatTensor) -> torch.FloatTensor:
        return torch.zeros(1, dtype=x.dtype, device=x.device)


class LpRegularizer(Regularizer):
    def __init__(self, weight: float = 1.0, dim: Optional[int] = -1, normalize: bool = False,
                 p: float = 2.0, **kwargs):
        super().__init__(weight=weight, **kwargs)
        self.dim = dim
        self.normalize = normalize
        self.p = p

    def forward(self, x: torch.FloatTensor) -> torch.FloatTensor:
        value = x.norm(p=self.p, dim=self.dim).mean()
        if not self.normalize:
            return value
        return value / x.shape[-1] ** (1 / self.p)


regularizer_resolver = {
    "no": NoRegularizer,
    "lp": LpRegularizer,
}


def resolve_regularizer(name, **kwargs) -> Regularizer:
    if name is None:
        return NoRegularizer()
    return regularizer_resolver[name.lower()](**kwargs)
