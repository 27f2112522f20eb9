import torch


def _splat(tenIn, tenFlow):
    N, C, H, W = tenIn.shape
    gy, gx = torch.meshgrid(torch.arange(H, dtype=tenIn.dtype), torch.arange(W, dtype=tenIn.dtype), indexing="ij")
    fx = gx[None] + tenFlow[:, 0]
    fy = gy[None] + tenFlow[:, 1]
    x0, y0 = fx.floor(), fy.floor()
    out = tenIn.new_zeros(N, C, H * W)
    src = tenIn.reshape(N, C, H * W)
    for dx, dy in ((0, 0), (1, 0), (0, 1), (1, 1)):
        xi, yi = x0 + dx, y0 + dy
        w = (1 - (fx - xi).abs()) * (1 - (fy - yi).abs())
        valid = ((xi >= 0) & (xi < W) & (yi >= 0) & (yi < H)).to(tenIn.dtype)
        idx = (yi.clamp(0, H - 1) * W + xi.clamp(0, W - 1)).long().reshape(N, 1, H * W).expand(N, C, H * W)
        out = out.scatter_add(2, idx, src * (w * valid).reshape(N, 1, H * W))
    return out.reshape(N, C, H, W)


class softsplat_func(torch.autograd.Function):
    @staticmethod
    def forward(self, tenIn, tenFlow):
        self.save_for_backward(tenIn, tenFlow)
        return _splat(tenIn, tenFlow)

    @staticmethod
    def backward(self, tenOutgrad):
        tenIn, tenFlow = self.saved_tensors
        with torch.enable_grad():
            tenIn = tenIn.detach().requires_grad_(self.needs_input_grad[0])
            tenFlow = tenFlow.detach().requires_grad_(self.needs_input_grad[1])
            tenOut = _splat(tenIn, tenFlow)
            inputs = [t for t in (tenIn, tenFlow) if t.requires_grad]
            grads = list(torch.autograd.grad(tenOut, inputs, tenOutgrad))
        tenIngrad = grads.pop(0) if self.needs_input_grad[0] else None
        tenFlowgrad = grads.pop(0) if self.needs_input_grad[1] else None
        return tenIngrad, tenFlowgrad


def softsplat(tenIn, tenFlow, tenMetric, strMode="soft"):
    if strMode == "avg":
        tenIn = torch.cat([tenIn, tenIn.new_ones(tenIn.shape[0], 1, tenIn.shape[2], tenIn.shape[3])], 1)
    elif strMode == "soft":
        tenIn = torch.cat([tenIn * tenMetric.exp(), tenMetric.exp()], 1)
    tenOut = softsplat_func.apply(tenIn, tenFlow)
    tenNormalize = tenOut[:, -1:, :, :]
    tenNormalize = tenNormalize + 1e-7
    return tenOut[:, :-1, :, :] / tenNormalize
