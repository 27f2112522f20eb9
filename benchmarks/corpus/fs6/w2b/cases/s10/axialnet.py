import torch
import torch.nn as nn
import torch.nn.functional as F


def conv1x1(in_planes, out_planes, stride=1):
    return nn.Conv2d(in_planes, out_planes, kernel_size=1, stride=stride, bias=False)


class qkv_transform(nn.Conv1d):
    pass


class AxialAttention_dynamic(nn.Module):
    GATES = {"f_qr": 0.1, "f_kr": 0.1, "f_sve": 0.1, "f_sv": 1.0}

    def __init__(self, in_planes, out_planes, groups=4, kernel_size=16, width=False):
        super().__init__()
        assert in_planes % groups == 0 and out_planes % groups == 0
        self.in_planes = in_planes
        self.out_planes = out_planes
        self.groups = groups
        self.group_planes = out_planes // groups
        self.kernel_size = kernel_size
        self.width = width

        self.qkv_transform = qkv_transform(in_planes, out_planes * 2, kernel_size=1, bias=False)
        self.bn_qkv = nn.BatchNorm1d(out_planes * 2)
        self.bn_similarity = nn.BatchNorm2d(groups * 3)
        self.bn_output = nn.BatchNorm1d(out_planes * 2)

        for name, init in self.GATES.items():
            setattr(self, name, nn.Parameter(torch.tensor(init), requires_grad=False))

        self.relative = nn.Parameter(torch.randn(self.group_planes * 2, kernel_size * 2 - 1), requires_grad=True)
        query_index = torch.arange(kernel_size).unsqueeze(0)
        key_index = torch.arange(kernel_size).unsqueeze(1)
        relative_index = key_index - query_index + kernel_size - 1
        self.register_buffer("flatten_index", relative_index.view(-1))
        self.reset_parameters()

    def forward(self, x):
        if self.width:
            x = x.permute(0, 2, 1, 3)
        else:
            x = x.permute(0, 3, 1, 2)
        N, W, C, H = x.shape
        x = x.contiguous().view(N * W, C, H)

        qkv = self.bn_qkv(self.qkv_transform(x))
        gp = self.group_planes
        q, k, v = torch.split(qkv.reshape(N * W, self.groups, gp * 2, H), [gp // 2, gp // 2, gp], dim=2)

        all_emb = torch.index_select(self.relative, 1, self.flatten_index).view(gp * 2, self.kernel_size, self.kernel_size)
        q_emb, k_emb, v_emb = torch.split(all_emb, [gp // 2, gp // 2, gp], dim=0)
        qr = torch.einsum("bgci,cij->bgij", q, q_emb)
        kr = torch.einsum("bgci,cij->bgij", k, k_emb).transpose(2, 3)
        qk = torch.einsum("bgci,bgcj->bgij", q, k)

        qr = torch.mul(qr, self.f_qr)
        kr = torch.mul(kr, self.f_kr)

        stacked = torch.cat([qk, qr, kr], dim=1)
        stacked = self.bn_similarity(stacked).view(N * W, 3, self.groups, H, H).sum(dim=1)
        similarity = F.softmax(stacked, dim=3)
        sv = torch.einsum("bgij,bgcj->bgci", similarity, v)
        sve = torch.einsum("bgij,cij->bgci", similarity, v_emb)

        sv = torch.mul(sv, self.f_sv)
        sve = torch.mul(sve, self.f_sve)

        stacked_out = torch.cat([sv, sve], dim=-1).view(N * W, self.out_planes * 2, H)
        output = self.bn_output(stacked_out).view(N, W, self.out_planes, 2, H).sum(dim=-2)
        if self.width:
            output = output.permute(0, 2, 1, 3)
        else:
            output = output.permute(0, 2, 3, 1)
        return output

    def reset_parameters(self):
        n = self.in_planes
        self.qkv_transform.weight.data.normal_(0, (1.0 / n) ** 0.5)
        nn.init.normal_(self.relative, 0.0, (1.0 / self.group_planes) ** 0.5)


class AxialBlock_dynamic(nn.Module):
    expansion = 2

    def __init__(self, inplanes, planes, groups=4, kernel_size=16):
        super().__init__()
        width = planes
        self.conv_down = conv1x1(inplanes, width)
        self.bn1 = nn.BatchNorm2d(width)
        self.hight_block = AxialAttention_dynamic(width, width, groups=groups, kernel_size=kernel_size)
        self.width_block = AxialAttention_dynamic(width, width, groups=groups, kernel_size=kernel_size, width=True)
        self.conv_up = conv1x1(width, planes * self.expansion)
        self.bn2 = nn.BatchNorm2d(planes * self.expansion)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = nn.Sequential(conv1x1(inplanes, planes * self.expansion), nn.BatchNorm2d(planes * self.expansion))

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv_down(x)))
        out = self.hight_block(out)
        out = self.width_block(out)
        out = self.relu(out)
        out = self.bn2(self.conv_up(out))
        return self.relu(out + self.downsample(identity))


class MedT_lite(nn.Module):
    def __init__(self, num_classes=2, img_size=32, s=16):
        super().__init__()
        self.conv1 = nn.Conv2d(3, s, kernel_size=3, stride=2, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(s)
        self.relu = nn.ReLU(inplace=True)
        self.layer1 = AxialBlock_dynamic(s, s, kernel_size=img_size // 2)
        self.decoder = nn.Conv2d(s * 2, s, kernel_size=3, padding=1)
        self.adjust = nn.Conv2d(s, num_classes, kernel_size=1)

    def forward(self, x):
        x = self.relu(self.bn1(self.conv1(x)))
        x = self.layer1(x)
        x = F.relu(F.interpolate(self.decoder(x), scale_factor=2, mode="bilinear", align_corners=False))
        return self.adjust(x)
