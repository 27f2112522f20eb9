import torch
import torch.nn.functional as F

from sdf_net import ColorNetwork, SDFNetwork

CONFIG = {
    "encoding": {"otype": "Frequency", "n_frequencies": 6, "fused": True},
    "hidden": 64,
    "lr": 1e-3,
    "iters": 4,
    "batch_size": 256,
    "eikonal_weight": 0.1,
}


def sample_batch(n, g):
    x = torch.rand(n, 3, generator=g) * 2 - 1
    sdf_gt = x.norm(dim=-1, keepdim=True) - 0.5
    color_gt = (x * 0.5 + 0.5).clamp(0, 1)
    return x, sdf_gt, color_gt


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    sdf_net = SDFNetwork(CONFIG["encoding"], hidden=CONFIG["hidden"])
    color_net = ColorNetwork()
    params = list(sdf_net.parameters()) + list(color_net.parameters())
    optimizer = torch.optim.Adam(params, lr=CONFIG["lr"])
    for it in range(CONFIG["iters"]):
        x, sdf_gt, color_gt = sample_batch(CONFIG["batch_size"], g)
        sdf, feat, normals = sdf_net.sdf_and_normals(x)
        color = color_net(x, F.normalize(normals, dim=-1), feat)
        loss_sdf = F.l1_loss(sdf, sdf_gt)
        loss_rgb = F.mse_loss(color, color_gt)
        loss_eik = ((normals.norm(dim=-1) - 1) ** 2).mean()
        loss = loss_sdf + loss_rgb + CONFIG["eikonal_weight"] * loss_eik
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it} sdf {loss_sdf.item():.4f} rgb {loss_rgb.item():.4f} eik {loss_eik.item():.4f}")


if __name__ == "__main__":
    main()
