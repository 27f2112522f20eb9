import torch
import torch.nn.functional as F

from transform import Normalize

norm_transform = Normalize([0.5] * 3, [0.5] * 3)


def preprocess_image(image, size=32):
    """Resize a 3xHxW image in [0, 1] to the detector's input size and normalise it."""
    resized_image = F.interpolate(image.unsqueeze(0), size=(size, size), mode="bilinear",
                                  align_corners=False)[0]
    normalized_image = norm_transform(resized_image)
    return normalized_image.unsqueeze(0)


def predict_with_model(image, model):
    logits = model(preprocess_image(image))
    return logits.argmax(dim=1).item(), logits


def iterative_fgsm(input_img, model, target=0, eps=0.05, alpha=0.01, max_iter=5):
    """Push a fake face towards the 'real' class while staying in an eps-ball."""
    input_var = input_img.clone().requires_grad_(True)
    for i in range(max_iter):
        prediction, logits = predict_with_model(input_var, model)
        loss = F.cross_entropy(logits, torch.tensor([target]))
        model.zero_grad()
        if input_var.grad is not None:
            input_var.grad.zero_()
        loss.backward()
        with torch.no_grad():
            input_var -= alpha * input_var.grad.sign()
            input_var.copy_(torch.min(torch.max(input_var, input_img - eps), input_img + eps).clamp(0, 1))
        print(f"iter {i}: prediction {prediction} loss {loss.item():.4f}")
    return input_var.detach()
