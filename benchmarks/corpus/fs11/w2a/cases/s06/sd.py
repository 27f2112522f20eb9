import torch
from torch import nn
from torch.amp import custom_bwd, custom_fwd


class SpecifyGradient(torch.autograd.Function):
    @staticmethod
    @custom_fwd(device_type="cpu")
    def forward(ctx, input_tensor, gt_grad):
        ctx.save_for_backward(gt_grad)
        return torch.ones([1], device=input_tensor.device, dtype=input_tensor.dtype)

    @staticmethod
    @custom_bwd(device_type="cpu")
    def backward(ctx, grad_scale):
        gt_grad, = ctx.saved_tensors
        return gt_grad, None


class TinyUNet(nn.Module):
    def __init__(self, channels=4, hidden=16, num_train_timesteps=1000):
        super().__init__()
        self.time_embed = nn.Embedding(num_train_timesteps, hidden)
        self.inp = nn.Conv2d(channels, hidden, 3, padding=1)
        self.mid = nn.Conv2d(hidden, hidden, 3, padding=1)
        self.out = nn.Conv2d(hidden, channels, 3, padding=1)

    def forward(self, x, t, text_embeddings):
        h = torch.relu(self.inp(x) + self.time_embed(t)[:, :, None, None])
        h = torch.relu(self.mid(h) + text_embeddings[:, :, None, None])
        return self.out(h)


class StableDiffusion(nn.Module):
    def __init__(self, hidden=16, num_train_timesteps=1000, t_range=(0.02, 0.98)):
        super().__init__()
        self.num_train_timesteps = num_train_timesteps
        self.min_step = int(num_train_timesteps * t_range[0])
        self.max_step = int(num_train_timesteps * t_range[1])
        self.vae_enc = nn.Conv2d(3, 4, 4, stride=4)
        self.unet = TinyUNet(4, hidden, num_train_timesteps)
        betas = torch.linspace(0.00085 ** 0.5, 0.012 ** 0.5, num_train_timesteps) ** 2
        self.register_buffer("alphas", torch.cumprod(1.0 - betas, dim=0))
        for p in self.parameters():
            p.requires_grad_(False)

    def encode_imgs(self, imgs):
        return self.vae_enc(2 * imgs - 1) * 0.18215

    def train_step(self, text_embeddings, pred_rgb, guidance_scale=100):
        latents = self.encode_imgs(pred_rgb)
        t = torch.randint(self.min_step, self.max_step + 1, (latents.shape[0],), dtype=torch.long)
        with torch.no_grad():
            noise = torch.randn_like(latents)
            a = self.alphas[t].view(-1, 1, 1, 1)
            latents_noisy = a.sqrt() * latents + (1 - a).sqrt() * noise
            latent_model_input = torch.cat([latents_noisy] * 2)
            tt = torch.cat([t] * 2)
            noise_pred = self.unet(latent_model_input, tt, text_embeddings)
            noise_pred_uncond, noise_pred_text = noise_pred.chunk(2)
            noise_pred = noise_pred_uncond + guidance_scale * (noise_pred_text - noise_pred_uncond)
        w = 1 - self.alphas[t].view(-1, 1, 1, 1)
        grad = w * (noise_pred - noise)
        grad = torch.nan_to_num(grad)
        return SpecifyGradient.apply(latents, grad)
