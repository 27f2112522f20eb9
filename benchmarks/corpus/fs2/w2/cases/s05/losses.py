import torch
import torch.nn.functional as F


def masked_denoising_loss(model_pred, target, masks):
    loss = F.mse_loss(model_pred.float(), target.float(), reduction="none")
    loss = loss * masks
    loss = loss.sum([1, 2, 3, 4]) / masks.sum([1, 2, 3, 4])
    return loss.mean()


def boxes_to_masks(boxes, frames, height, width):
    batch = len(boxes)
    masks = torch.zeros(batch, 1, frames, height, width)
    for b, frame_boxes in enumerate(boxes):
        for f, box in enumerate(frame_boxes):
            if box is None:
                continue
            x0, y0, x1, y1 = box
            masks[b, :, f, y0:y1, x0:x1] = 1.0
    return masks
