from typing import NamedTuple

import torch
import torch.nn as nn


class LIFState(NamedTuple):
    z: torch.Tensor
    v: torch.Tensor
    i: torch.Tensor


class SuperSpike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.save_for_backward(x)
        ctx.alpha = alpha
        return (x > 0).to(x.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output / (ctx.alpha * x.abs() + 1.0).pow(2), None


def lif_step(x, state, w_in, w_rec, tau_syn_inv=0.2, tau_mem_inv=0.1, v_th=1.0, alpha=100.0):
    dv = tau_mem_inv * ((0.0 - state.v) + state.i)
    v_decayed = state.v + dv
    di = -tau_syn_inv * state.i
    i_decayed = state.i + di
    z_new = SuperSpike.apply(v_decayed - v_th, alpha)
    v_new = (1 - z_new) * v_decayed
    i_new = i_decayed + x @ w_in.t() + state.z @ w_rec.t()
    return z_new, LIFState(z_new, v_new, i_new)


class LIFRecurrentLayer(nn.Module):
    def __init__(self, input_size, hidden_size, stateful=False):
        super().__init__()
        self.hidden_size = hidden_size
        self.stateful = stateful
        self.w_in = nn.Parameter(torch.randn(hidden_size, input_size) * (2.0 / input_size) ** 0.5)
        self.w_rec = nn.Parameter(torch.randn(hidden_size, hidden_size) * (1.0 / hidden_size) ** 0.5)
        self.state = None

    def initial_state(self, x):
        zeros = x.new_zeros(x.shape[1], self.hidden_size)
        return LIFState(zeros, zeros.clone(), zeros.clone())

    def forward(self, x):
        if self.state is None or not self.stateful:
            self.state = self.initial_state(x)
        outputs = []
        state = self.state
        for ts in range(x.shape[0]):
            z, state = lif_step(x[ts], state, self.w_in, self.w_rec)
            outputs.append(z)
        self.state = state
        return torch.stack(outputs)


class LILinearReadout(nn.Module):
    def __init__(self, input_size, output_size, tau_mem_inv=0.1):
        super().__init__()
        self.fc = nn.Linear(input_size, output_size, bias=False)
        self.tau_mem_inv = tau_mem_inv

    def forward(self, z):
        v = z.new_zeros(z.shape[1], self.fc.out_features)
        voltages = []
        for ts in range(z.shape[0]):
            v = v + self.tau_mem_inv * (self.fc(z[ts]) - v)
            voltages.append(v)
        return torch.stack(voltages)


class SNNClassifier(nn.Module):
    def __init__(self, input_size, hidden_size, num_classes, stateful=False):
        super().__init__()
        self.hidden = LIFRecurrentLayer(input_size, hidden_size, stateful=stateful)
        self.readout = LILinearReadout(hidden_size, num_classes)

    def forward(self, x):
        voltages = self.readout(self.hidden(x))
        return voltages.max(dim=0).values
