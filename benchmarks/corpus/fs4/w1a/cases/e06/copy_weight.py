import torch

from model import Model

CFG = {
    "nc": 80,
    "width": 8,
    "anchors": [[10, 13, 16, 30, 33, 23], [30, 61, 62, 45, 59, 119], [116, 90, 156, 198, 373, 326]],
}


def soft_filter_prune(state_dict, ratio):
    pruned = {}
    for name, w in state_dict.items():
        if name.endswith("conv.weight") and w.dim() == 4:
            norms = w.flatten(1).norm(dim=1)
            k = int(w.size(0) * ratio)
            idx = norms.argsort()[:k]
            w = w.clone()
            w[idx] = 0
        pruned[name] = w
    return pruned


def main():
    torch.manual_seed(0)
    model_src = Model(CFG)
    state = soft_filter_prune(model_src.state_dict(), ratio=0.3)
    model_dst = Model(CFG)
    missing, unexpected = model_dst.load_state_dict(state, strict=False)
    x = torch.randn(2, 3, 64, 64)
    outs = model_dst(x)
    print([tuple(o.shape) for o in outs], len(missing), len(unexpected))


if __name__ == "__main__":
    main()
