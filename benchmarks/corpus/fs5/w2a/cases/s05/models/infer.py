import torch


@torch.no_grad()
def run_inference(input_images, image_encoder, image_adapter, unet, alphas_cumprod, denoise_timesteps=4):
    cond = image_adapter(image_encoder(input_images))
    x = torch.randn_like(input_images)
    timesteps = torch.linspace(len(alphas_cumprod) - 1, 0, denoise_timesteps).long()
    for t in timesteps:
        a = alphas_cumprod[t]
        eps = unet(x, t.expand(x.shape[0]), cond)
        x0 = (x - (1 - a).sqrt() * eps) / a.sqrt()
        x = x0.clamp(-1, 1)
    return x
