import torch

import compat  # noqa: F401
from torchvision.models import vgg11_bn

from hooks import attach, block_ends
from stylize import content_loss, optimize, style_loss

torch.manual_seed(0)

SIZE = 32
N_ITER = 2


def load_vgg():
    m = vgg11_bn(weights=None).features.eval()
    for p in m.parameters():
        p.requires_grad = False
    return m


def random_image():
    return torch.rand(1, 3, SIZE, SIZE)


def new_opt_img():
    return (torch.rand(1, 3, SIZE, SIZE) * 0.1 + 0.45).requires_grad_(True)


m_vgg = load_vgg()
idxs = block_ends(m_vgg)
sfs = attach(m_vgg, idxs)


def run_content(content_img):
    m_vgg(content_img)
    targ = sfs[2].features.clone()
    img, final = optimize(m_vgg, new_opt_img(), lambda: content_loss(sfs, targ, 2), N_ITER)
    for sf in sfs:
        sf.close()
    return img, final


def run_style(style_img):
    m_vgg(style_img)
    targ_styles = [sf.features.clone() for sf in sfs]
    img, final = optimize(m_vgg, new_opt_img(), lambda: style_loss(sfs, targ_styles), N_ITER)
    return img, final


if __name__ == "__main__":
    content_img = random_image()
    style_img = random_image()
    _, c_loss = run_content(content_img)
    print(f"content reconstruction loss {c_loss:.5f}")
    _, s_loss = run_style(style_img)
    print(f"style reconstruction loss {s_loss:.5f}")
