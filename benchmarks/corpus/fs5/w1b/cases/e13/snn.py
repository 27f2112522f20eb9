from typing import NamedTuple

import torch
import torch.nn as nn


class SuperSpike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, v, alpha):
        ctx.save_for_backward(v)
        ctx.alpha = alpha
        return (v > 0).to(v.dtype)

    @staticmethod
    def backward(ctx, grad):
        (v,) = ctx.saved_tensors
        return grad / (ctx.alpha * v.abs() + 1.0).pow(2), None


class LIFState(NamedTuple):
    v: torch.Tensor
    i: torch.Tensor


class LIFCell(nn.Module):
    def __init__(self, in_features, out_features, tau_syn=200.0, tau_mem=100.0,
                 v_th=1.0, dt=1e-3, alpha=100.0):
        super().__init__()
        self.input_weights = nn.Parameter(torch.randn(out_features, in_features) / in_features ** 0.5)
        self.tau_syn, self.tau_mem = tau_syn, tau_mem
        self.v_th, self.dt, self.alpha = v_th, dt, alpha
        self.out_features = out_features

    def initial_state(self, x):
        z = x.new_zeros(x.shape[0], self.out_features)
        return LIFState(v=z, i=z.clone())

    def forward(self, x, state=None):
        if state is None:
            state = self.initial_state(x)
        v = state.v + self.dt * self.tau_mem * (state.i - state.v)
        i = state.i - self.dt * self.tau_syn * state.i
        z = SuperSpike.apply(v - self.v_th, self.alpha)
        v = (1 - z) * v
        i = i + nn.functional.linear(x, self.input_weights)
        return z, LIFState(v, i)


class LeakyReadout(nn.Module):
    def __init__(self, in_features, out_features, tau_mem=100.0, dt=1e-3):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features, bias=False)
        self.decay = 1 - dt * tau_mem

    def forward(self, z, v=None):
        v = self.fc(z) if v is None else self.decay * v + self.fc(z)
        return v


class SpikingClassifier(nn.Module):
    """Spiking classifier: one LIF layer and a leaky-integrator readout."""

    def __init__(self, in_features, hidden, n_classes, stateful=False):
        super().__init__()
        self.lif = LIFCell(in_features, hidden)
        self.readout = LeakyReadout(hidden, n_classes)
        self.stateful = stateful
        self.state = None

    def reset(self):
        self.state = None

    def forward(self, x_seq):
        s = self.state if self.stateful else None
        v_out, outputs = None, []
        for x in x_seq:
            z, s = self.lif(x, s)
            v_out = self.readout(z, v_out)
            outputs.append(v_out)
        if self.stateful:
            self.state = s
        return torch.stack(outputs).max(dim=0).values
