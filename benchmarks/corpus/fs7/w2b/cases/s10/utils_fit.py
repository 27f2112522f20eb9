import torch
import torch.nn.functional as F


def detection_loss(regression, classification, reg_targets, cls_targets, alpha=0.25, gamma=2.0):
    prob = classification.sigmoid()
    ce = F.binary_cross_entropy_with_logits(classification, cls_targets, reduction="none")
    p_t = prob * cls_targets + (1 - prob) * (1 - cls_targets)
    alpha_t = alpha * cls_targets + (1 - alpha) * (1 - cls_targets)
    cls_loss = (alpha_t * (1 - p_t) ** gamma * ce).mean()
    reg_loss = F.smooth_l1_loss(regression, reg_targets)
    return cls_loss, reg_loss


def fit_one_epoch(model_train, optimizer, gen, epoch, epoch_step):
    total = 0.0
    model_train.train()
    for iteration, (images, reg_targets, cls_targets) in enumerate(gen):
        if iteration >= epoch_step:
            break
        optimizer.zero_grad()
        regression, classification = model_train(images)
        cls_loss, reg_loss = detection_loss(regression, classification, reg_targets, cls_targets)
        loss = cls_loss + reg_loss
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(f"Epoch {epoch + 1}: loss {total / epoch_step:.4f}")
