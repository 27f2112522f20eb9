"""Functional classification metrics (tensor in, tensor out)."""
from typing import Optional, Tuple

import torch


def to_categorical(tensor: torch.Tensor, argmax_dim: int = 1) -> torch.Tensor:
    return torch.argmax(tensor, dim=argmax_dim)


def get_num_classes(pred: torch.Tensor, target: torch.Tensor,
                    num_classes: Optional[int] = None) -> int:
    num_target_classes = int(target.max().detach().item() + 1)
    num_pred_classes = int(pred.max().detach().item() + 1)
    num_all_classes = max(num_target_classes, num_pred_classes)
    if num_classes is None:
        num_classes = num_all_classes
    return num_classes


def stat_scores_multiple_classes(
    pred: torch.Tensor,
    target: torch.Tensor,
    num_classes: Optional[int] = None,
    argmax_dim: int = 1,
) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    if pred.ndim == target.ndim + 1:
        pred = to_categorical(pred, argmax_dim=argmax_dim)
    num_classes = get_num_classes(pred=pred, target=target, num_classes=num_classes)

    pred = pred.view((-1,)).long()
    target = target.view((-1,)).long()

    pred.clamp_max_(max=num_classes)
    target.clamp_max_(max=num_classes)

    tps = torch.zeros((num_classes + 1,), device=pred.device)
    fps = torch.zeros((num_classes + 1,), device=pred.device)
    fns = torch.zeros((num_classes + 1,), device=pred.device)
    sups = torch.zeros((num_classes + 1,), device=pred.device)

    match_true = (pred == target).float()
    match_false = 1 - match_true
    tps.scatter_add_(0, pred, match_true)
    fps.scatter_add_(0, pred, match_false)
    fns.scatter_add_(0, target, match_false)
    tns = pred.size(0) - (tps + fps + fns)
    sups.scatter_add_(0, target, torch.ones_like(match_true))
    return (tps[:num_classes], fps[:num_classes], tns[:num_classes],
            fns[:num_classes], sups[:num_classes])


def accuracy(pred: torch.Tensor, target: torch.Tensor,
             num_classes: Optional[int] = None) -> torch.Tensor:
    tps, fps, tns, fns, sups = stat_scores_multiple_classes(pred, target, num_classes)
    return tps.sum() / sups.sum()


def f1_score(pred: torch.Tensor, target: torch.Tensor,
             num_classes: Optional[int] = None) -> torch.Tensor:
    tps, fps, tns, fns, sups = stat_scores_multiple_classes(pred, target, num_classes)
    precision = tps / (tps + fps).clamp_min(1)
    recall = tps / (tps + fns).clamp_min(1)
    f1 = 2 * precision * recall / (precision + recall).clamp_min(1e-8)
    return f1.mean()
