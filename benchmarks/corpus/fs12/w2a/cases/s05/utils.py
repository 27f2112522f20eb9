import torch


def pose_loss(t_pred, q_pred, t_gt, q_gt, beta=10.0):
    t_err = (t_pred - t_gt).norm(dim=1).mean()
    q_err = (1 - (q_pred * q_gt).sum(1).abs()).mean()
    return t_err + beta * q_err, t_err, q_err


def setup_finetune(model, cfg):
    if cfg["freeze_backbone"]:
        model.backbone.eval()
    return model


def synthetic_views(n, size=32):
    img = torch.rand(n, 3, size, size)
    t = img[:, 0].mean((1, 2)).unsqueeze(1).repeat(1, 3) * torch.tensor([1.0, -2.0, 0.5])
    q = torch.nn.functional.normalize(torch.randn(n, 4), dim=1)
    return img, t, q
